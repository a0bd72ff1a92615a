package flashclaim.load;

import io.gatling.javaapi.core.Simulation;
import java.util.List;

/**
 * W3 sold-out storm: {@code users} distinct users (default 20,000) claim once each, evenly within
 * {@code duration} seconds (default 3, so about 6,700 claims per second), from a campaign with an empty
 * pool, through one pool of connections (as behind a load balancer; {@code
 * -DshareConnections=false} for a connection per user). Every answer must be 410, at the first
 * try (no retries), and the run must be served at {@code minAnswersPerSecond} (default 5,000)
 * answers per second or more.
 */
public class W3SoldOutSimulation extends Simulation {
  static final int USERS = 20_000;
  static final int COUPONS = 0;
  static final int DURATION_SECONDS = 3;
  static final int P99_MS = 250;
  static final int MIN_ANSWERS_PER_SECOND = 5_000;
  static final List<Integer> EXPECTED = List.of(410);

  private final ClaimLoad load =
      new ClaimLoad(
          "W3",
          ClaimLoad.Defaults.of(USERS, COUPONS, DURATION_SECONDS, P99_MS)
              .withRetries(0, false)
              .withSharedConnections());

  {
    setUp(load.oneClaimPerUser("W3 sold-out storm", EXPECTED))
        .protocols(load.protocol())
        .assertions(load.throughputAssertions(MIN_ANSWERS_PER_SECOND));
  }

  @Override
  public void before() {
    load.announce("one claim per user against an empty pool");
  }

  @Override
  public void after() {
    load.report(1);
  }
}
