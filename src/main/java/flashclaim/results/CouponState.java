package flashclaim.results;

/**
 * Where a coupon stands, as the results name it: {@code available} (in the pool, nobody holds it),
 * {@code claimed} (held by a user, not redeemed: the redemption state {@code assigned}, also after
 * an order that used it was cancelled) or {@code redeemed} (used by an order the shop reported).
 */
public enum CouponState {
  AVAILABLE("available"),
  CLAIMED("claimed"),
  REDEEMED("redeemed");

  private final String wireName;

  CouponState(String wireName) {
    this.wireName = wireName;
  }

  /** The name in the API. */
  public String wireName() {
    return wireName;
  }
}
