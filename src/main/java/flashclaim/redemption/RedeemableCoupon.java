package flashclaim.redemption;

import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CouponCode;
import io.micronaut.core.annotation.Nullable;

/**
 * A coupon as redemption sees it, read from the store.
 *
 * @param lastOrder the order of the last redemption event applied; null when none ever was
 * @param version the store's version of the coupon, opaque to everyone but the store (Firestore:
 *     its update time); a change is written only if the coupon is still at this version
 */
public record RedeemableCoupon(
    CampaignId campaignId,
    CouponCode code,
    RedemptionState state,
    @Nullable OrderId lastOrder,
    Object version) {

  /** What an event does to this coupon: the transition table of {@link RedemptionState}. */
  public Transition decide(RedemptionEvent.Kind kind, OrderId order) {
    boolean sameOrder = order.equals(lastOrder);
    return switch (state) {
      case UNASSIGNED -> new Transition.NotAssigned();
      case ASSIGNED ->
          sameOrder
              ? new Transition.AlreadyApplied() // this order's event came before (and was cancelled)
              : kind == RedemptionEvent.Kind.REDEEMED
                  ? new Transition.To(RedemptionState.REDEEMED)
                  : new Transition.Refused("the coupon is not redeemed: there is nothing to cancel");
      case REDEEMED ->
          !sameOrder
              ? new Transition.Refused("the coupon is redeemed by another order")
              : kind == RedemptionEvent.Kind.CANCELLED
                  ? new Transition.To(RedemptionState.ASSIGNED)
                  : new Transition.AlreadyApplied();
    };
  }

  /** This coupon after a transition to {@code next} by {@code order}. */
  public RedeemableCoupon after(RedemptionState next, OrderId order, Object newVersion) {
    return new RedeemableCoupon(campaignId, code, next, order, newVersion);
  }

  /** The result of {@link #decide}. */
  public sealed interface Transition {
    /** The event moves the coupon to {@code next}. */
    record To(RedemptionState next) implements Transition {}

    /** The event was applied before; nothing changes. */
    record AlreadyApplied() implements Transition {}

    /** Nobody holds the coupon, so nobody can have used it. */
    record NotAssigned() implements Transition {}

    /** The event does not fit the coupon's state; {@code reason} says why. */
    record Refused(String reason) implements Transition {}
  }
}
