package flashclaim.metrics;

import flashclaim.claim.SoldOutHoldingsReads;
import flashclaim.claim.SoldOutProofs;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micronaut.context.BeanProvider;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;

/**
 * Meters of the sold-out fast path: claims answered sold out on a proof, without a pool query
 * ({@value #PROVEN}), and the reads of the campaigns' additions counters it made ({@value
 * #COUNTER_READS}); the second stays far below the first when claims share their reads. And the
 * reads of a user's own claims made before admission while a proven campaign's holders are still
 * being read ({@value #HOLDINGS_READS}).
 */
@Singleton
@Requires(beans = MeterRegistry.class)
final class SoldOutMeters implements MeterBinder {
  static final String PROVEN = "flashclaim.soldout.proven";
  static final String COUNTER_READS = "flashclaim.soldout.counter.reads";
  static final String HOLDINGS_READS = "flashclaim.soldout.holdings.reads";

  // A provider, read at each scrape: the store behind it is built after the meter registry.
  private final BeanProvider<SoldOutProofs> proofs;
  private final BeanProvider<SoldOutHoldingsReads> holdingsReads;

  SoldOutMeters(
      BeanProvider<SoldOutProofs> proofs, BeanProvider<SoldOutHoldingsReads> holdingsReads) {
    this.proofs = proofs;
    this.holdingsReads = holdingsReads;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    FunctionCounter.builder(PROVEN, proofs, p -> p.get().provenSoldOuts())
        .description("claims answered sold out on a proof, without a pool query")
        .register(registry);
    FunctionCounter.builder(COUNTER_READS, proofs, p -> p.get().reads())
        .description("reads of a campaign's additions counter by the sold-out fast path")
        .register(registry);
    FunctionCounter.builder(HOLDINGS_READS, holdingsReads, r -> r.get().reads())
        .description(
            "reads of a user's claims before admission, for a proven sold-out campaign whose"
                + " holders this instance is still reading")
        .register(registry);
  }
}
