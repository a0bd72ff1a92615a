package flashclaim.claim;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * When a campaign's pool is expected to run out ({@code flashclaim.claim.sell-out.*}, {@link
 * SellOutForecast}): admission tells no refused new user a turn later than that, plus a margin.
 *
 * @param enabled forecast the sell-out of campaigns whose refused users are told turns beyond
 *     their wait; false: turns follow the appointment book alone, up to {@code
 *     flashclaim.admission.max-retry-after}
 * @param interval the least time between two reads of one campaign's stock by one instance (a
 *     count of its claims); reads happen only while this instance refuses that campaign's users
 * @param margin how much later than the expected sell-out a refused user is told to come back:
 *     the forecast's room for error
 * @param staleAfter a forecast from a stock read this old no longer counts
 * @param maxCampaigns campaigns one instance forecasts at once; beyond it the least recently used
 *     is forgotten
 * @param spacing how users whose turns come after the expected sell-out are spread after it: each
 *     is told the latest turn plus the time between the first such user's first arrival and theirs,
 *     times this (2: they come back in the order they first came, at half the rate; 0: all at the
 *     latest turn, where their order would be whatever order their returns are read in), and never
 *     later than their turn in the book
 */
@ConfigurationProperties("flashclaim.claim.sell-out")
public record SellOutConfig(
    @Bindable(defaultValue = "true") boolean enabled,
    @Bindable(defaultValue = "1s") Duration interval,
    @Bindable(defaultValue = "1s") Duration margin,
    @Bindable(defaultValue = "5s") Duration staleAfter,
    @Bindable(defaultValue = "1000") int maxCampaigns,
    @Bindable(defaultValue = "2") double spacing) {

  /** Refuses a configuration that cannot work: the service does not start with it. */
  public SellOutConfig {
    if (interval.isNegative()
        || interval.isZero()
        || margin.isNegative()
        || staleAfter.compareTo(interval) <= 0
        || maxCampaigns < 1
        || !(spacing >= 0 && spacing <= 10)) {
      throw new IllegalStateException(
          "flashclaim.claim.sell-out: interval must be positive, margin not negative, stale-after"
              + " longer than the interval, max-campaigns at least 1, spacing between 0 and 10");
    }
  }
}
