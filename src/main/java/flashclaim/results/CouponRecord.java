package flashclaim.results;

import flashclaim.redemption.RedemptionState;
import io.micronaut.core.annotation.Nullable;
import java.time.Instant;

/**
 * A coupon with what became of it: who holds it, since when, and whether an order used it.
 *
 * @param user the holder's user key (SHA-256 of the token subject, as 64 hex characters: the store
 *     keeps no subject); null while available
 * @param claimedAt when the holder claimed it; null while available
 * @param orderId the order that redeemed it; null unless {@code redeemed} (the order of a
 *     cancelled redemption is not the coupon's)
 */
public record CouponRecord(
    String code,
    CouponState state,
    @Nullable String user,
    @Nullable Instant claimedAt,
    @Nullable String orderId) {

  /**
   * The record of a coupon from its stored fields: the holder's user key (null while in the pool),
   * when it was claimed, and the redemption fields as the redemption package writes them (its
   * {@link RedemptionState#wireName()}, null when never redeemed, and the order of the last event
   * applied). The one place that decides the state, for every store.
   */
  public static CouponRecord of(
      String code,
      @Nullable String holder,
      @Nullable Instant claimedAt,
      @Nullable String redemptionState,
      @Nullable String lastOrder) {
    if (holder == null) {
      return new CouponRecord(code, CouponState.AVAILABLE, null, null, null);
    }
    boolean redeemed = RedemptionState.REDEEMED.wireName().equals(redemptionState);
    return new CouponRecord(
        code,
        redeemed ? CouponState.REDEEMED : CouponState.CLAIMED,
        holder,
        claimedAt,
        redeemed ? lastOrder : null);
  }
}
