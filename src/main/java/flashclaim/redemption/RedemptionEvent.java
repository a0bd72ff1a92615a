package flashclaim.redemption;

import flashclaim.InvalidInputException;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CouponCode;
import io.micronaut.core.annotation.Nullable;
import java.util.Objects;

/**
 * What a shop reports about a coupon: the order {@code orderId} used it ({@code redeemed}) or was
 * cancelled ({@code cancelled}).
 *
 * @param campaignId the coupon's campaign when the shop knows it; null lets the service find the
 *     campaign by the code, which works as long as the code is in one campaign only
 */
public record RedemptionEvent(
    CouponCode code, @Nullable CampaignId campaignId, OrderId orderId, Kind kind) {

  public RedemptionEvent {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(orderId, "orderId");
    Objects.requireNonNull(kind, "kind");
  }

  /** The two events a shop sends. */
  public enum Kind {
    REDEEMED("redeemed"),
    CANCELLED("cancelled");

    private final String wireName;

    Kind(String wireName) {
      this.wireName = wireName;
    }

    public String wireName() {
      return wireName;
    }

    /** The kind of its wire name ({@code redeemed} or {@code cancelled}). */
    public static Kind of(String wireName) {
      for (Kind kind : values()) {
        if (kind.wireName.equals(wireName)) {
          return kind;
        }
      }
      throw new InvalidInputException("event", "event must be \"redeemed\" or \"cancelled\"");
    }
  }
}
