package flashclaim.load;

import io.gatling.javaapi.core.Simulation;

/**
 * W6 overload: {@code users} distinct users (default 30,000) arrive evenly within {@code
 * duration} seconds (default 30, so 1,000 per second) for a pool of {@code coupons}
 * (default 5,000), on one instance by default. The clients behave: after any 503 they wait what
 * Retry-After says and try again (up to {@code maxRetries}, default 120), each time sending back
 * the {@code Flashclaim-Ticket} header of the last answer that had one ({@code -Dtickets=false}:
 * clients that ignore it), and they give up on an answer after {@code requestTimeoutMs} (default
 * 10,000). The users share one pool of kept-alive connections ({@code -DshareConnections=false}:
 * a connection per user, which holds a descriptor per waiting user; {@code -DcloseConnections}: a
 * new connection per attempt); {@code bin/load-run --front-end 1000} puts a load balancer's front
 * end between them and each instance (1,000 connections per instance, as Cloud Run's most).
 *
 * <p>{@code bin/load-run} sets the rate from the capacity it measured in the same run: {@code
 * users} = 3 x that capacity (at least 1,000 per second) x {@code duration}, and passes the
 * floor it measured ({@code floorP99Ms}, the p99 of sold-out answers at the same rate).
 *
 * <p>Every status is an answer here, so a failed request is a connection error or a client
 * timeout, and there must be none; attempts must be answered within 1 s of the floor ({@code
 * floorP99Ms + p99OverFloorMs}) at p99, or within {@code p99Ms} (default 1,000) without a floor.
 * Whether the earlier clicks won (FIFO precision at least {@code minFifoPrecision}, default 0.99)
 * and every claim ended in 201 or 410 is checked by {@code bin/load-run}'s summary from the
 * tally.
 */
public class W6OverloadSimulation extends Simulation {
  static final int USERS = 30_000;
  static final int COUPONS = 5_000;
  static final int DURATION_SECONDS = 30;
  static final int P99_MS = 1_000;
  static final int MAX_RETRIES = 120;
  static final int REQUEST_TIMEOUT_MS = 10_000;
  static final double MIN_FIFO_PRECISION = 0.99;

  private final ClaimLoad load;

  public W6OverloadSimulation() {
    this("W6", MIN_FIFO_PRECISION, 1);
  }

  /**
   * W6 under another name, with another FIFO target, refusing fewer than {@code minInstances}
   * base URLs (W8).
   */
  protected W6OverloadSimulation(String workload, double minFifoPrecision, int minInstances) {
    ClaimLoad.Defaults defaults =
        ClaimLoad.Defaults.of(USERS, COUPONS, DURATION_SECONDS, P99_MS)
            .withRetries(MAX_RETRIES, true)
            .withRequestTimeoutMs(REQUEST_TIMEOUT_MS)
            .withMinFifoPrecision(minFifoPrecision)
            .withSharedConnections();
    load = new ClaimLoad(workload, defaults);
    if (load.baseUrls().size() < minInstances) {
      throw new IllegalArgumentException(
          workload + " needs at least " + minInstances + " base URLs in -DbaseUrls");
    }
    setUp(load.oneClaimPerUser(workload + " overload", ClaimLoad.ANY_STATUS))
        .protocols(load.protocol())
        .assertions(load.assertions());
  }

  @Override
  public void before() {
    load.announce(
        "one claim per user, overload, retries honouring Retry-After and tickets, p99 limit "
            + load.p99LimitMs()
            + " ms");
  }

  @Override
  public void after() {
    load.report(1);
  }
}
