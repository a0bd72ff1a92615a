package flashclaim.metrics;

import flashclaim.claim.SellOutForecast;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micronaut.context.BeanProvider;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;

/**
 * The stock reads of the sell-out forecast ({@value #READS}): at most one per second per campaign
 * per instance, and only while the instance tells that campaign's users turns beyond their wait.
 */
@Singleton
@Requires(beans = MeterRegistry.class)
final class SellOutMeters implements MeterBinder {
  static final String READS = "flashclaim.claim.sell.out.reads";

  // A provider, read at each scrape: the store behind it is built after the meter registry.
  private final BeanProvider<SellOutForecast> forecast;

  SellOutMeters(BeanProvider<SellOutForecast> forecast) {
    this.forecast = forecast;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    FunctionCounter.builder(READS, forecast, f -> f.get().reads())
        .description("stock reads of the sell-out forecast")
        .register(registry);
  }
}
