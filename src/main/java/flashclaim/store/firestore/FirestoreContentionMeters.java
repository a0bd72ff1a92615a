package flashclaim.store.firestore;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;

/**
 * The claim strategies' store operations beyond the one that won, as meters: {@value #RETRIES}
 * (commits that lost a race and moved to the next candidate), {@value #ABORTS} (aborted
 * transactions, of the transactional baselines) and {@value #QUERIES} (candidate probes).
 */
@Singleton
@Requires(beans = {MeterRegistry.class, ContentionCounters.class})
final class FirestoreContentionMeters implements MeterBinder {
  static final String RETRIES = "flashclaim.store.retries";
  static final String ABORTS = "flashclaim.store.aborts";
  static final String QUERIES = "flashclaim.store.queries";

  private final ContentionCounters counters;

  FirestoreContentionMeters(ContentionCounters counters) {
    this.counters = counters;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    FunctionCounter.builder(RETRIES, counters, ContentionCounters::lostRaces)
        .description("claim commits that lost a race (precondition failed) and were retried")
        .tag("store", "firestore")
        .register(registry);
    FunctionCounter.builder(ABORTS, counters, ContentionCounters::aborts)
        .description("claim transactions aborted by contention")
        .tag("store", "firestore")
        .register(registry);
    FunctionCounter.builder(QUERIES, counters, ContentionCounters::queries)
        .description("candidate queries of the claim strategies")
        .tag("store", "firestore")
        .register(registry);
  }
}
