package flashclaim.http;

import io.micronaut.http.filter.ServerFilterPhase;

/**
 * The order of every HTTP filter of the service, in one table: a request meets them from the top
 * down, its answer passes them from the bottom up. No two share an order. Micronaut's own
 * authentication and access rules run at {@link ServerFilterPhase#SECURITY} (its {@code
 * SecurityFilter}), between {@link #CLAIM_PACING} and {@link #BODY_LIMIT}.
 *
 * <p>The path of a claim, in this order: a request id, the one spelling of its path, load
 * shedding (counted in flight; claims are bounded by admission instead), pacing (a retry sooner
 * than its caller was told is answered 429 before its token is checked), authentication, the body
 * limit, then {@link #CLAIM_EDGE}, which runs App Check, the answers that need no store and fair
 * admission in that order, then the idempotency key and the controller.
 */
public final class FilterOrder {
  /** Gives every error answer a problem+json body: outermost, it sees every other answer. */
  public static final int PROBLEM_BODY = ServerFilterPhase.FIRST.before();

  /** Gives the request its id, echoed in the answer: a refusal by any later filter has one too. */
  public static final int REQUEST_ID = PROBLEM_BODY + 1;

  /** Closes the connection of a refused request whose body goes on arriving. */
  public static final int REFUSED_BODY = PROBLEM_BODY + 2;

  /** Answers 404 to a path that is not the one spelling of a route, before any route's filter. */
  public static final int CANONICAL_PATH = PROBLEM_BODY + 3;

  /** Headers of the static pages (a response filter of {@code /dashboard} and {@code /app}). */
  public static final int PAGE_HEADERS = PROBLEM_BODY + 4;

  /** The status and details of the health endpoints (a response filter of {@code /health}). */
  public static final int HEALTH_DETAILS = PROBLEM_BODY + 5;

  /**
   * Answers a request for a reserved campaign (the start-up warm-up's) as for an unknown one,
   * unless it is the warm-up's own: before anything else spends work on it.
   */
  public static final int RESERVED_CAMPAIGN = PROBLEM_BODY + 6;

  /** Counts API requests in flight, bounds those that are not claims, refuses all when draining. */
  public static final int LOAD_SHED = ServerFilterPhase.FIRST.order();

  /**
   * Answers a claim that comes back sooner than its caller's last 503 said with 429, from memory:
   * before authentication, so that the retries of a client in a tight loop cost no token check.
   */
  public static final int CLAIM_PACING = ServerFilterPhase.SECURITY.before();

  /** Holds request bodies to their route's limit; after authentication, since admins may send more. */
  public static final int BODY_LIMIT = ServerFilterPhase.SECURITY.after();

  /** The claim route's own steps: App Check, answers without the store, fair admission. */
  public static final int CLAIM_EDGE = BODY_LIMIT + 1;

  /** Idempotency keys of POSTs: after admission, since its store work is part of the claim's. */
  public static final int IDEMPOTENCY = BODY_LIMIT + 2;

  /** The modification guard: after idempotency, so that a replay enters no guard. */
  public static final int MODIFICATION_GUARD = BODY_LIMIT + 3;

  private FilterOrder() {}
}
