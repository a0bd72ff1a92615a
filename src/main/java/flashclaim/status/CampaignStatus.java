package flashclaim.status;

import flashclaim.campaign.Campaign;
import flashclaim.campaign.Stock;
import java.time.Instant;

/**
 * A campaign as an app shows it: its phase and how many coupons remain, read at {@code stockReadAt}
 * (at most {@code flashclaim.status.stock-max-age} before {@code serverTime}).
 *
 * <p>It is a hint for the screen, not a promise: only a claim decides. A campaign shown {@code
 * open} may be sold out by the time the claim arrives, and one shown {@code sold-out} may get a
 * coupon back from a claim that failed.
 */
public record CampaignStatus(
    Campaign campaign, Phase phase, long remaining, Instant stockReadAt, Instant serverTime) {

  /** Where a campaign stands. */
  public enum Phase {
    /** Before {@code startsAt}: claims get 403 {@code campaign-not-open}. */
    UPCOMING,
    /** Within its window with coupons left. */
    OPEN,
    /** Within its window, no coupon left. */
    SOLD_OUT,
    /** Paused by an admin, not ended: claims get 403 {@code campaign-paused}, holders their coupon. */
    PAUSED,
    /** At or after {@code endsAt}. */
    ENDED
  }

  /** The status of a campaign at {@code now}, from a stock read at {@code stockReadAt}. */
  static CampaignStatus of(Campaign campaign, Stock stock, Instant stockReadAt, Instant now) {
    long remaining = Math.max(0, stock.remaining());
    Campaign.Window window = campaign.windowAt(now);
    Phase phase =
        window != Campaign.Window.ENDED && campaign.paused()
            ? Phase.PAUSED
            : switch (window) {
              case NOT_STARTED -> Phase.UPCOMING;
              case ENDED -> Phase.ENDED;
              case OPEN -> remaining == 0 ? Phase.SOLD_OUT : Phase.OPEN;
            };
    return new CampaignStatus(campaign, phase, remaining, stockReadAt, now);
  }
}
