package flashclaim.http;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.Api;
import flashclaim.testing.ServiceInstance;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * G6 on the health routes, which anyone may call: a flood of probes from many callers at once
 * evaluates each set of indicators at most once per cache TTL (so the store is read at that rate,
 * not the flood's) on a bounded pool of threads, and every probe is answered UP.
 */
class HealthFloodTest {
  private static final List<String> PROBES = List.of("/health", "/health/liveness", "/health/readiness");
  private static final int CALLERS = 48;
  private static final int PROBES_PER_CALLER = 60;
  /** {@code micronaut.executors.io.number-of-threads} in application.yml. */
  private static final int IO_THREADS = 16;

  @Test
  void aFloodOfProbesEvaluatesTheIndicatorsOncePerTtlOnBoundedThreads() throws Exception {
    try (ServiceInstance service = ServiceInstance.start(Map.of("flashclaim.health.cache-ttl", "1s"))) {
      MeterRegistry meters = service.context().getBean(MeterRegistry.class);
      assertThat(Api.get(service.url(), "/health", null).status()).isEqualTo(200);
      double before = evaluations(meters);
      long ioThreadsBefore = ioThreads();
      AtomicLong ioThreadsPeak = new AtomicLong();
      ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
      sampler.scheduleAtFixedRate(
          () -> ioThreadsPeak.accumulateAndGet(ioThreads(), Math::max), 0, 10, TimeUnit.MILLISECONDS);
      ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
      long started = System.nanoTime();
      List<Future<List<String>>> answers = new ArrayList<>();
      try {
        for (int c = 0; c < CALLERS; c++) {
          int caller = c;
          answers.add(
              callers.submit(
                  () -> {
                    List<String> seen = new ArrayList<>();
                    for (int i = 0; i < PROBES_PER_CALLER; i++) {
                      Api.Response response =
                          Api.get(service.url(), PROBES.get((caller + i) % PROBES.size()), null);
                      seen.add(response.status() + " " + response.json().get("status"));
                    }
                    return seen;
                  }));
        }
        for (Future<List<String>> answer : answers) {
          assertThat(answer.get(2, TimeUnit.MINUTES)).containsOnly("200 UP");
        }
      } finally {
        callers.shutdownNow();
        sampler.shutdownNow();
      }
      double seconds = (System.nanoTime() - started) / 1e9;
      double evaluated = evaluations(meters) - before;
      // Each of the three sets at most once per started second, plus the one in flight at the end.
      assertThat(evaluated)
          .as("evaluations for %d probes in %.1f s", CALLERS * PROBES_PER_CALLER, seconds)
          .isGreaterThanOrEqualTo(PROBES.size() - 1) // /health may still be cached from the first probe
          .isLessThanOrEqualTo(PROBES.size() * (Math.ceil(seconds) + 1));
      assertThat(ioThreadsPeak.get() - ioThreadsBefore).as("I/O threads started by the flood").isLessThanOrEqualTo(IO_THREADS);
    }
  }

  /** Live threads of Micronaut's I/O pools (of every instance in this JVM). */
  private static long ioThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("io-executor-thread-"))
        .count();
  }

  private static double evaluations(MeterRegistry meters) {
    return meters.get("flashclaim.health.evaluations").counter().count();
  }
}
