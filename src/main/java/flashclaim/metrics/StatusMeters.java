package flashclaim.metrics;

import flashclaim.status.CampaignStatusService;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micronaut.context.BeanProvider;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;

/**
 * The campaign status that apps poll, as meters: {@value #STOCK_READS} (stock reads it cost the
 * store; per campaign at most one per {@code flashclaim.status.stock-max-age}, whatever the number
 * of requests) and {@value #CAMPAIGNS} (campaigns whose status the instance holds).
 */
@Singleton
@Requires(beans = MeterRegistry.class)
final class StatusMeters implements MeterBinder {
  static final String STOCK_READS = "flashclaim.status.stock.reads";
  static final String CAMPAIGNS = "flashclaim.status.campaigns";

  // A provider, read at each scrape: the store beans behind the service are built after the
  // meter registry (see CoordinationMeters).
  private final BeanProvider<CampaignStatusService> statuses;

  StatusMeters(BeanProvider<CampaignStatusService> statuses) {
    this.statuses = statuses;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    FunctionCounter.builder(STOCK_READS, statuses, s -> s.get().stockReadCount())
        .description("stock reads of the campaign status route")
        .register(registry);
    Gauge.builder(CAMPAIGNS, statuses, s -> s.get().cachedCampaigns())
        .description("campaigns whose status this instance holds")
        .register(registry);
  }
}
