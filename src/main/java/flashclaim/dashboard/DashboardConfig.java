package flashclaim.dashboard;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * Tunables of the live campaign dashboard ({@code flashclaim.dashboard.*}).
 *
 * @param maxCampaigns campaigns one instance keeps live figures of; past it, the least used are
 *     forgotten, so memory stays bounded whatever ids arrive
 * @param rateWindow the sliding window of the claims-per-second figures
 * @param stockCacheTtl how long an instance reuses a stock it read (a stock costs count queries;
 *     this keeps N open dashboards from multiplying the store's load)
 * @param pollInterval how often the dashboard page asks for new figures
 */
@ConfigurationProperties("flashclaim.dashboard")
public record DashboardConfig(
    @Bindable(defaultValue = "1000") int maxCampaigns,
    @Bindable(defaultValue = "10s") Duration rateWindow,
    @Bindable(defaultValue = "1s") Duration stockCacheTtl,
    @Bindable(defaultValue = "1s") Duration pollInterval) {

  public DashboardConfig {
    if (maxCampaigns < 1) {
      throw new IllegalArgumentException("flashclaim.dashboard.max-campaigns must be at least 1");
    }
    if (rateWindow.toSeconds() < 1) {
      throw new IllegalArgumentException("flashclaim.dashboard.rate-window must be at least 1s");
    }
    if (stockCacheTtl.isNegative() || pollInterval.isNegative() || pollInterval.isZero()) {
      throw new IllegalArgumentException(
          "flashclaim.dashboard.stock-cache-ttl must not be negative, poll-interval must be positive");
    }
  }
}
