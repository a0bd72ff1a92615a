package flashclaim.http.problem;

import io.micronaut.http.MutableHttpResponse;
import java.time.Duration;

/** The 503s of a request that an instance refuses before any work: at its limit, or stopping. */
public final class Refusals {
  private Refusals() {}

  /** The 503 {@code overloaded} of a request refused because the instance is at its limit. */
  public static MutableHttpResponse<Problem> overloaded(String path, Duration retryAfter) {
    return ProblemType.OVERLOADED.retryLater(
        "this instance is at its limit of concurrent requests; retry later", path, retryAfter);
  }

  /** The 503 {@code shutting-down} of a request refused because the instance is stopping. */
  public static MutableHttpResponse<Problem> shuttingDown(String path, Duration retryAfter) {
    return ProblemType.SHUTTING_DOWN.retryLater(
        "this instance is stopping; retry, another instance will answer", path, retryAfter);
  }
}
