package flashclaim.redemption;

import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CouponCode;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Port: the redemption state of coupons. The rules (which event applies when) live in {@link
 * RedeemableCoupon#decide}, the serialization per coupon in {@link RedemptionService}. Redemption
 * writes only its own fields of a coupon, never its assignment, and never a claim record.
 *
 * <p>Every method may throw {@link flashclaim.StoreException} when the store fails or does not
 * answer within its timeout.
 */
public interface RedemptionStore {

  /** The coupon with this code in this campaign, read by id. */
  Optional<RedeemableCoupon> find(CampaignId campaign, CouponCode code);

  /**
   * The campaigns that hold a coupon with this code, at most {@code limit}: how a webhook that
   * names only the code finds its coupon. One query over every campaign's coupons.
   */
  List<CampaignId> campaignsWithCode(CouponCode code, int limit);

  /**
   * Moves the coupon to {@code next} by {@code order} at {@code at}, if it is still at {@code
   * seen.version()}: a conditional write, never a blind one.
   *
   * @return the coupon as written; empty when it changed since {@code seen} was read (nothing was
   *     written)
   */
  Optional<RedeemableCoupon> transition(
      RedeemableCoupon seen, RedemptionState next, OrderId order, Instant at);
}
