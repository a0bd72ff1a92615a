package flashclaim.http.shed;

import flashclaim.startup.WarmUpEnded;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.core.bind.annotation.Bindable;
import io.micronaut.management.endpoint.health.HealthLevelOfDetail;
import io.micronaut.management.health.aggregator.DefaultHealthAggregator;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import io.micronaut.runtime.ApplicationConfiguration;
import io.micronaut.runtime.event.annotation.EventListener;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;

/**
 * Health answered from a short cache: however many probes arrive, from however many callers,
 * each set of indicators ({@code /health}, {@code /health/liveness}, {@code /health/readiness},
 * at each level of detail) is evaluated at most once per {@code flashclaim.health.cache-ttl}, and
 * callers that ask while it is evaluated share that evaluation. The health routes are open to
 * anyone; without this, each probe would read the store and find deadlocked threads among all of
 * the JVM's, on a thread of its own: a flood of probes made threads without bound and read the
 * store at the flood's rate.
 */
@Singleton
@Replaces(DefaultHealthAggregator.class)
final class HealthCache extends DefaultHealthAggregator {
  private final long ttlNanos;
  private final Counter evaluations;
  /** One entry per indicator set and level: a handful, fixed by the routes. */
  private final Map<String, Entry> entries = new ConcurrentHashMap<>();

  HealthCache(ApplicationConfiguration application, Config config, MeterRegistry meters) {
    super(application);
    this.ttlNanos = config.cacheTtl().toNanos();
    this.evaluations =
        Counter.builder("flashclaim.health.evaluations")
            .description("evaluations of a set of health indicators (at most one per cache TTL)")
            .register(meters);
  }

  @Override
  public Publisher<HealthResult> aggregate(HealthIndicator[] indicators, HealthLevelOfDetail detail) {
    String key =
        detail
            + Arrays.stream(indicators).map(i -> i.getClass().getName()).sorted().collect(Collectors.joining(",", ":", ""));
    return entries.compute(key, (k, old) -> old != null && old.fresh() ? old : evaluate(indicators, detail))
        .result;
  }

  /**
   * Readiness turns UP when the start-up warm-up ends: the answers cached before are forgotten, so
   * that a probe sees it at once rather than up to a cache TTL later.
   */
  @EventListener
  void onWarmUpEnded(WarmUpEnded ended) {
    entries.clear();
  }

  private Entry evaluate(HealthIndicator[] indicators, HealthLevelOfDetail detail) {
    evaluations.increment();
    Entry entry = new Entry();
    entry.result =
        Mono.from(super.aggregate(indicators, detail))
            .doFinally(signal -> entry.endedNanos = System.nanoTime())
            .cache();
    return entry;
  }

  /** An evaluation: in flight until it ends, then fresh for the TTL. */
  private final class Entry {
    private Mono<HealthResult> result;
    private volatile long endedNanos;

    boolean fresh() {
      long ended = endedNanos;
      return ended == 0 || System.nanoTime() - ended < ttlNanos;
    }
  }

  /**
   * Tunables of the health routes ({@code flashclaim.health.*}).
   *
   * @param cacheTtl how long an evaluation of the health indicators answers every probe (0s:
   *     every probe evaluates, and probes that arrive together still share one evaluation)
   */
  @ConfigurationProperties("flashclaim.health")
  record Config(@Bindable(defaultValue = "1s") Duration cacheTtl) {
    Config {
      if (cacheTtl.isNegative()) {
        throw new IllegalArgumentException("flashclaim.health.cache-ttl must not be negative");
      }
    }
  }
}
