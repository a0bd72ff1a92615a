package flashclaim.redemption;

/**
 * Where a coupon stands for redemption. The transitions, all driven by the shop's webhooks
 * ({@link RedemptionEvent}) and decided by {@link RedeemableCoupon#decide}:
 *
 * <pre>
 *   UNASSIGNED --(claim)--> ASSIGNED --redeemed(order)--> REDEEMED
 *                               ^                             |
 *                               +------cancelled(order)-------+
 * </pre>
 *
 * <ul>
 *   <li>{@code UNASSIGNED}: in the pool, held by nobody. No event applies (409): a code nobody
 *       claimed cannot have been used.
 *   <li>{@code ASSIGNED}: held by a user, not redeemed. {@code redeemed(o)} makes it REDEEMED by
 *       order {@code o}. {@code cancelled} is refused (409): there is no redemption to cancel.
 *   <li>{@code REDEEMED}: used by order {@code o}. {@code cancelled(o)} (the order was cancelled)
 *       makes it ASSIGNED again: the user keeps the coupon and may use it in another order. An
 *       event of another order is refused (409): the coupon is in use by {@code o}.
 * </ul>
 *
 * The coupon remembers the order of the last event applied, so a repeated delivery of that event
 * (same kind, same order) changes nothing and answers "already applied" (200). So does a late
 * repeat of {@code redeemed(o)} after {@code cancelled(o)}: that event was applied once, and a
 * cancelled order does not redeem the coupon again; a new order does. Claims never look at these
 * states, and redemption never touches the assignment (G1-G5 are unaffected).
 */
public enum RedemptionState {
  UNASSIGNED("unassigned"),
  ASSIGNED("assigned"),
  REDEEMED("redeemed");

  private final String wireName;

  RedemptionState(String wireName) {
    this.wireName = wireName;
  }

  /** The name in the API and the store. */
  public String wireName() {
    return wireName;
  }
}
