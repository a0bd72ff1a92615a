package flashclaim.store.postgres;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;

/**
 * How claims share calls on PostgreSQL: {@value #CALLS} (calls of {@code claim_coupons}) and
 * {@value #ATTEMPTS} (claim attempts sent in them). Attempts over calls is the mean batch: near 1
 * while calls are free, growing with the load.
 */
@Singleton
@Requires(beans = {MeterRegistry.class, ClaimCallCounters.class})
final class PostgresClaimMeters implements MeterBinder {
  static final String CALLS = "flashclaim.store.claim.calls";
  static final String ATTEMPTS = "flashclaim.store.claim.attempts";

  private final ClaimCallCounters counters;

  PostgresClaimMeters(ClaimCallCounters counters) {
    this.counters = counters;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    FunctionCounter.builder(CALLS, counters, ClaimCallCounters::calls)
        .description("calls of the database that carried claim attempts")
        .tag("store", "postgres")
        .register(registry);
    FunctionCounter.builder(ATTEMPTS, counters, ClaimCallCounters::attempts)
        .description("claim attempts sent in those calls")
        .tag("store", "postgres")
        .register(registry);
  }
}
