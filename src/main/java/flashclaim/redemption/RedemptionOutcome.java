package flashclaim.redemption;

import flashclaim.campaign.CampaignId;
import java.util.List;

/**
 * What a redemption webhook came to. Every expected result is a value; store faults are {@link
 * flashclaim.StoreException}. The HTTP layer maps each case to one status.
 */
public sealed interface RedemptionOutcome {

  /** The event changed the coupon's state; {@code coupon} is the coupon after it (200). */
  record Applied(RedeemableCoupon coupon) implements RedemptionOutcome {}

  /** The event had been applied before; nothing changed (200). */
  record AlreadyApplied(RedeemableCoupon coupon) implements RedemptionOutcome {}

  /** No coupon has this code (in the campaign given, or in any campaign) (404). */
  record UnknownCode() implements RedemptionOutcome {}

  /** The event named no campaign and the code is in several; the shop must name one (409). */
  record AmbiguousCode(List<CampaignId> campaigns) implements RedemptionOutcome {}

  /** Nobody holds the coupon, so no order can have used it (409). */
  record NotAssigned(RedeemableCoupon coupon) implements RedemptionOutcome {}

  /** The event does not fit the coupon's state (409); {@code reason} says why. */
  record InvalidTransition(RedeemableCoupon coupon, String reason) implements RedemptionOutcome {}

  /**
   * Another delivery about the same coupon held its lock for the whole wait, or kept changing the
   * coupon; the shop should deliver again later (503).
   */
  record Busy() implements RedemptionOutcome {}
}
