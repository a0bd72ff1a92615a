package flashclaim.store.firestore;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.util.function.ToDoubleFunction;

/**
 * The claim strategies' store operations beyond the one that won, as meters: {@value #RETRIES}
 * (commits that lost a race and moved to the next candidate), {@value #ABORTS} (aborted
 * transactions, of the transactional baselines) and {@value #QUERIES} (candidate probes); and
 * {@value #CANDIDATE_WAITS} and {@value #CANDIDATE_WAIT} (waits of claims that found no candidate
 * ready for a probe of the pool, and their time in all).
 */
@Singleton
@Requires(beans = {MeterRegistry.class, ContentionCounters.class})
final class FirestoreContentionMeters implements MeterBinder {
  static final String RETRIES = "flashclaim.store.retries";
  static final String ABORTS = "flashclaim.store.aborts";
  static final String QUERIES = "flashclaim.store.queries";
  static final String CANDIDATE_WAITS = "flashclaim.store.candidate.waits";
  static final String CANDIDATE_WAIT = "flashclaim.store.candidate.wait.seconds";

  private final ContentionCounters counters;

  FirestoreContentionMeters(ContentionCounters counters) {
    this.counters = counters;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    counter(
        registry,
        RETRIES,
        ContentionCounters::lostRaces,
        "claim commits that lost a race (precondition failed) and were retried");
    counter(
        registry, ABORTS, ContentionCounters::aborts, "claim transactions aborted by contention");
    counter(
        registry,
        QUERIES,
        ContentionCounters::queries,
        "candidate queries of the claim strategies");
    counter(
        registry,
        CANDIDATE_WAITS,
        ContentionCounters::candidateWaits,
        "waits of claims that found no candidate coupon ready for a probe of the pool");
    counter(
        registry,
        CANDIDATE_WAIT,
        ContentionCounters::candidateWaitSeconds,
        "seconds that claims waited for probes of the pool, together");
  }

  private void counter(
      MeterRegistry registry,
      String name,
      ToDoubleFunction<ContentionCounters> count,
      String description) {
    FunctionCounter.builder(name, counters, count)
        .description(description)
        .tag("store", "firestore")
        .register(registry);
  }
}
