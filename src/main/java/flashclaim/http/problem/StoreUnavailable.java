package flashclaim.http.problem;

import flashclaim.StoreException;
import flashclaim.http.HttpConfig;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store failed or was too slow: 503 with Retry-After, since a retry may well succeed. The
 * answer of a route that throws a {@link StoreException} ({@link ErrorRoutes}) and of the filters
 * and routes that call the store themselves.
 */
public final class StoreUnavailable {
  private static final Logger LOG = LoggerFactory.getLogger(StoreUnavailable.class);

  private StoreUnavailable() {}

  /** The 503 of a store fault. */
  public static MutableHttpResponse<Problem> response(
      HttpRequest<?> request, StoreException e, HttpConfig config) {
    LOG.warn("store unavailable on {} {}: {}", request.getMethod(), request.getPath(), e.getMessage());
    return ProblemType.STORE_UNAVAILABLE.retryLater(
        "the data store did not answer in time; retry later",
        request.getPath(),
        config.retryAfter());
  }
}
