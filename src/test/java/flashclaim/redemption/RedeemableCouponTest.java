package flashclaim.redemption;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CouponCode;
import flashclaim.redemption.RedeemableCoupon.Transition;
import flashclaim.redemption.RedemptionEvent.Kind;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The transition table of {@link RedemptionState}, row by row. */
class RedeemableCouponTest {
  private static final OrderId O1 = new OrderId("order-1");
  private static final OrderId O2 = new OrderId("order-2");

  static Stream<Arguments> table() {
    Transition toRedeemed = new Transition.To(RedemptionState.REDEEMED);
    Transition toAssigned = new Transition.To(RedemptionState.ASSIGNED);
    Transition already = new Transition.AlreadyApplied();
    Transition notAssigned = new Transition.NotAssigned();
    return Stream.of(
        // state, last order, event, order -> transition
        Arguments.of(RedemptionState.UNASSIGNED, null, Kind.REDEEMED, O1, notAssigned),
        Arguments.of(RedemptionState.UNASSIGNED, null, Kind.CANCELLED, O1, notAssigned),
        Arguments.of(RedemptionState.ASSIGNED, null, Kind.REDEEMED, O1, toRedeemed),
        Arguments.of(RedemptionState.ASSIGNED, null, Kind.CANCELLED, O1, refused()),
        Arguments.of(RedemptionState.REDEEMED, O1, Kind.REDEEMED, O1, already),
        Arguments.of(RedemptionState.REDEEMED, O1, Kind.REDEEMED, O2, refused()),
        Arguments.of(RedemptionState.REDEEMED, O1, Kind.CANCELLED, O1, toAssigned),
        Arguments.of(RedemptionState.REDEEMED, O1, Kind.CANCELLED, O2, refused()),
        // assigned again after order-1 was cancelled
        Arguments.of(RedemptionState.ASSIGNED, O1, Kind.CANCELLED, O1, already),
        Arguments.of(RedemptionState.ASSIGNED, O1, Kind.REDEEMED, O1, already),
        Arguments.of(RedemptionState.ASSIGNED, O1, Kind.REDEEMED, O2, toRedeemed),
        Arguments.of(RedemptionState.ASSIGNED, O1, Kind.CANCELLED, O2, refused()));
  }

  /** Marks a row whose transition must be {@link Transition.Refused}, whatever the reason. */
  private static Transition refused() {
    return new Transition.Refused("*");
  }

  @ParameterizedTest(name = "{0} (last {1}) + {2}({3}) -> {4}")
  @MethodSource("table")
  void decides(RedemptionState state, OrderId last, Kind event, OrderId order, Transition expected) {
    RedeemableCoupon coupon =
        new RedeemableCoupon(new CampaignId("c"), new CouponCode("C-1"), state, last, "v1");

    Transition decided = coupon.decide(event, order);

    if (expected instanceof Transition.Refused) {
      assertThat(decided).isInstanceOf(Transition.Refused.class);
      assertThat(((Transition.Refused) decided).reason()).isNotBlank();
    } else {
      assertThat(decided).isEqualTo(expected);
    }
  }
}
