package flashclaim.load;

import io.gatling.javaapi.core.Simulation;
import java.util.List;

/**
 * W3 sold-out storm: {@code users} distinct users (default 20,000) claim once each, evenly within
 * {@code duration} seconds (default 30), from a campaign with an empty pool. Every answer must be
 * 410 (409 is tolerated for the modification guard); a 201 or 200 is a failed request here.
 */
public class W3SoldOutSimulation extends Simulation {
  static final int USERS = 20_000;
  static final int COUPONS = 0;
  static final int DURATION_SECONDS = 30;
  static final int P99_MS = 250;
  static final List<Integer> EXPECTED = List.of(410, 409);

  private final ClaimLoad load = new ClaimLoad("W3", USERS, COUPONS, DURATION_SECONDS, P99_MS);

  {
    setUp(load.oneClaimPerUser("W3 sold-out storm", EXPECTED))
        .protocols(load.protocol())
        .assertions(load.assertions());
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
