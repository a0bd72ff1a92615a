package flashclaim.http.shed;

import static org.assertj.core.api.Assertions.assertThat;

import com.netflix.concurrency.limits.limit.FixedLimit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;
import flashclaim.admission.AdmissionConfig;
import flashclaim.admission.FairAdmission;
import flashclaim.http.Arrival;
import flashclaim.http.HttpConfig;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.netty.channel.EventLoopGroupConfiguration;
import io.micronaut.http.netty.channel.EventLoopGroupRegistry;
import io.netty.channel.DefaultEventLoopGroup;
import io.netty.channel.EventLoopGroup;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How far behind an event loop is, as the first filter reads it for the request it runs for: a
 * loop kept busy for 400 ms is that far behind for the next request it reads, whose deadline then
 * counts from that much earlier while its place in line is when the filter saw it; an idle loop,
 * and any thread that is no loop, is not behind.
 */
class EventLoopLagTest {
  private final EventLoopGroup loops = new DefaultEventLoopGroup(1);
  private final EventLoopGroupRegistry registry =
      new EventLoopGroupRegistry() {
        @Override
        public Optional<EventLoopGroup> getEventLoopGroup(String name) {
          return Optional.of(loops);
        }

        @Override
        public EventLoopGroup getDefaultEventLoopGroup() {
          return loops;
        }

        @Override
        public Optional<EventLoopGroupConfiguration> getEventLoopGroupConfiguration(String name) {
          return Optional.empty();
        }
      };

  @AfterEach
  void stop() {
    loops.shutdownGracefully(0, 1, TimeUnit.SECONDS);
  }

  @Test
  void aBusyLoopIsBehindAndItsRequestsArrivedThatMuchEarlier() throws Exception {
    EventLoopLag lag = new EventLoopLag(registry, config(true));
    Thread.sleep(300); // a few probes on an idle loop
    assertThat(loops.submit(lag::currentLoopLag).get()).isLessThan(Duration.ofMillis(200)); // a loaded machine runs probes late
    assertThat(lag.currentLoopLag()).as("off the loops").isZero();

    loops.execute(() -> sleep(400)); // the loop falls behind
    Duration behind = loops.submit(lag::currentLoopLag).get();
    assertThat(behind).isBetween(Duration.ofMillis(250), Duration.ofMillis(1_000));

    LoadShedFilter counted = filter(lag, true);
    LoadShedFilter uncounted = filter(lag, false);
    uncounted.admit(HttpRequest.POST("/v1/campaigns/lag/claims", "")); // loads what it uses
    // the request is read while the loop is busy, so it is queued behind the busy task
    loops.execute(() -> sleep(400));
    Instant[] stamped =
        loops
            .submit(
                () -> {
                  HttpRequest<?> a = HttpRequest.POST("/v1/campaigns/lag/claims", "");
                  HttpRequest<?> b = HttpRequest.POST("/v1/campaigns/lag/claims", "");
                  Instant before = Instant.now();
                  counted.admit(a);
                  uncounted.admit(b);
                  Instant after = Instant.now();
                  return new Instant[] {
                    before,
                    after,
                    Arrival.of(a, Clock.systemUTC()),
                    Arrival.of(b, Clock.systemUTC()),
                    Arrival.seen(a, Clock.systemUTC())
                  };
                })
            .get();
    assertThat(Duration.between(stamped[2], stamped[0]))
        .as("counted: its deadline counts from that far back")
        .isGreaterThan(Duration.ofMillis(250));
    assertThat(stamped[4])
        .as("counted: seen (its place in line) when the filter ran")
        .isBetween(stamped[0], stamped[1]);
    assertThat(stamped[3])
        .as("not counted: its deadline counts from when the filter ran")
        .isBetween(stamped[0], stamped[1]);
  }

  private static HttpConfig config(boolean countLag) {
    return new HttpConfig(
        256, Duration.ofSeconds(1), Duration.ofMillis(50), countLag, "", Duration.ofSeconds(30), 0,
        true, Duration.ZERO);
  }

  private static LoadShedFilter filter(EventLoopLag lag, boolean countLag) {
    return filter(config(countLag), lag);
  }

  /** The first filter with {@code config}, over an admission of one slot. */
  static LoadShedFilter filter(HttpConfig config, @Nullable EventLoopLag lag) {
    AdmissionConfig admission =
        new AdmissionConfig(
            "fixed", 1, 1, 1, 0, Duration.ZERO, Duration.ofSeconds(2), Duration.ofSeconds(30),
            Duration.ofSeconds(30), Duration.ZERO, 0.5,
            1, Duration.ofSeconds(1), 1.0,
            AdmissionConfig.DEVELOPMENT_SECRET, Duration.ofMinutes(10), Duration.ZERO,
            Duration.ZERO, true, 4, 2, true, Duration.ofMillis(500));
    FairAdmission claims =
        new FairAdmission(
            admission,
            SimpleLimiter.newBuilder().limit(FixedLimit.of(1)).build(),
            Clock.systemUTC(),
            (delay, action) -> () -> {},
            () -> 0.5);
    return new LoadShedFilter(config, claims, Clock.systemUTC(), lag);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
