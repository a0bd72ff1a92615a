package flashclaim.load;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.Simulation;
import java.time.Duration;

/**
 * The capacity of one instance with its store, measured by {@code bin/load-run} before an overload
 * run (W6, W8, or any workload with {@code --calibrate}): a closed loop of {@code concurrency}
 * virtual users (default 64, the admission limit's most), each claiming once as a new user and replaced by the next at once,
 * for {@code warmupSeconds} (default 3, not counted) and then {@code duration} seconds (default
 * 10), against a campaign with more coupons than the loop can take, so every claim that is
 * admitted wins. No retries: a 503 is an answer and counts as no claim.
 *
 * <p>The summary of {@code bin/load-run} takes the capacity from {@code answersFile}: the 201s
 * answered after the warm-up, per second of the measured window. The assertions: no failed
 * request (a connection error or a client timeout), and at least one 201.
 */
public class CalibrationSimulation extends Simulation {
  static final int CONCURRENCY = 64;
  static final int WARMUP_SECONDS = 3;
  static final int DURATION_SECONDS = 10;

  private final ClaimLoad load =
      new ClaimLoad(
          "CALIBRATION",
          ClaimLoad.Defaults.of(
                  Integer.getInteger("concurrency", CONCURRENCY), 0, DURATION_SECONDS, 600_000)
              .withRetries(0, false)
              .withRequestTimeoutMs(10_000));
  private final int warmupSeconds = Integer.getInteger("warmupSeconds", WARMUP_SECONDS);

  {
    setUp(
            scenario("calibration")
                .exec(load.claim(load.endlessUsers(), ClaimLoad.ANY_STATUS))
                .injectClosed(
                    constantConcurrentUsers(load.users())
                        .during(load.duration().plus(Duration.ofSeconds(warmupSeconds)))))
        .protocols(load.protocol())
        .assertions(
            global().failedRequests().count().is(0L),
            global().successfulRequests().count().gt(0L));
  }

  @Override
  public void before() {
    load.announce(
        "closed loop of "
            + load.users()
            + " users, each claim by a new user, "
            + warmupSeconds
            + " s warm-up");
  }

  @Override
  public void after() {
    load.report(1);
  }
}
