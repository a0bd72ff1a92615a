package flashclaim.load;

import io.gatling.javaapi.core.Simulation;

/**
 * W6 overload, three times W1: {@code users} distinct users (default 30,000) arrive evenly within
 * {@code duration} seconds (default 30, so 1,000 per second) for a pool of {@code coupons}
 * (default 5,000), on one instance by default. The clients behave: after any 503 they wait what
 * Retry-After says and try again (up to {@code maxRetries}, default 120), each time sending back
 * the {@code Flashclaim-Ticket} header of the last answer that had one ({@code -Dtickets=false}:
 * clients that ignore it), and they give up on an answer after {@code requestTimeoutMs} (default
 * 10,000).
 *
 * <p>Every status is an answer here, so a failed request is a connection error or a client
 * timeout, and there must be none; attempts must be answered within {@code p99Ms} (default
 * 1,000) at p99. Whether the earlier clicks won (FIFO precision at least {@code
 * minFifoPrecision}, default 0.98) and every claim ended in 201 or 410 is checked by {@code
 * bin/load-run}'s summary from the tally.
 */
public class W6OverloadSimulation extends Simulation {
  static final int USERS = 30_000;
  static final int COUPONS = 5_000;
  static final int DURATION_SECONDS = 30;
  static final int P99_MS = 1_000;
  static final int MAX_RETRIES = 120;
  static final int REQUEST_TIMEOUT_MS = 10_000;
  static final double MIN_FIFO_PRECISION = 0.98;

  private final ClaimLoad load =
      new ClaimLoad(
          "W6",
          ClaimLoad.Defaults.of(USERS, COUPONS, DURATION_SECONDS, P99_MS)
              .withRetries(MAX_RETRIES, true)
              .withRequestTimeoutMs(REQUEST_TIMEOUT_MS)
              .withMinFifoPrecision(MIN_FIFO_PRECISION));

  {
    setUp(load.oneClaimPerUser("W6 overload", ClaimLoad.ANY_STATUS))
        .protocols(load.protocol())
        .assertions(load.assertions());
  }

  @Override
  public void before() {
    load.announce("one claim per user at three times W1's rate, retries honouring Retry-After and tickets");
  }

  @Override
  public void after() {
    load.report(1);
  }
}
