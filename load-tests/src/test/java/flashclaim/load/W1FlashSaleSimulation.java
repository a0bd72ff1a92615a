package flashclaim.load;

import io.gatling.javaapi.core.Simulation;

/**
 * W1 flash sale: {@code users} distinct users (default 10,000) arrive evenly within {@code
 * duration} seconds (default 30, about 333 claims per second) and claim once each from a pool of
 * {@code coupons} (default 5,000). Open injection: arrivals do not wait for answers. Expected:
 * exactly min(users, coupons) 201s and the rest 410, which {@code bin/load-run} checks together
 * with the audit. Users are spread round-robin over {@code baseUrls}.
 */
public class W1FlashSaleSimulation extends Simulation {
  static final int USERS = 10_000;
  static final int COUPONS = 5_000;
  static final int DURATION_SECONDS = 30;
  static final int P99_MS = 250;

  private final ClaimLoad load;

  public W1FlashSaleSimulation() {
    this("W1", 1);
  }

  /** W1 under another name, refusing fewer than {@code minInstances} base URLs (W4). */
  protected W1FlashSaleSimulation(String workload, int minInstances) {
    load = new ClaimLoad(workload, USERS, COUPONS, DURATION_SECONDS, P99_MS);
    if (load.baseUrls().size() < minInstances) {
      throw new IllegalArgumentException(
          workload + " needs at least " + minInstances + " base URLs in -DbaseUrls");
    }
    setUp(load.oneClaimPerUser(workload + " flash sale", ClaimLoad.CLAIM_OUTCOMES))
        .protocols(load.protocol())
        .assertions(load.assertions());
  }

  @Override
  public void before() {
    load.announce("one claim per user, arrivals spread evenly");
  }

  @Override
  public void after() {
    load.report(1);
  }
}
