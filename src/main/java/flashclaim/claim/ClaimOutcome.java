package flashclaim.claim;

import flashclaim.campaign.Campaign;
import java.time.Duration;

/**
 * What a claim came to. Every expected result is a value; infrastructure faults are {@link
 * flashclaim.StoreException}. The HTTP layer maps each case to one status.
 */
public sealed interface ClaimOutcome {

  /** A coupon was assigned to the user by this request. */
  record Claimed(Claim claim) implements ClaimOutcome {}

  /**
   * The user already holds as many coupons as the campaign allows; {@code claim} is the newest of
   * them. Repeating a claim lands here (G4): it never yields a second coupon.
   */
  record AlreadyHeld(Claim claim) implements ClaimOutcome {}

  /** A single consistent read of the pool found no unassigned coupon (G3). */
  record SoldOut() implements ClaimOutcome {}

  /** The campaign is not open at this moment. */
  record NotOpen(Campaign.Window window) implements ClaimOutcome {}

  /** No campaign has this id. */
  record UnknownCampaign() implements ClaimOutcome {}

  /**
   * Coupons may remain but none could be taken before the deadline because other claims won the
   * races. The client should retry after {@code retryAfter}.
   */
  record Busy(Duration retryAfter) implements ClaimOutcome {}
}
