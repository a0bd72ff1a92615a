package flashclaim.http;

import flashclaim.StoreException;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The store failed or was too slow: 503 with Retry-After, since a retry may well succeed. */
@Singleton
final class StoreUnavailableHandler implements ExceptionHandler<StoreException, HttpResponse<?>> {
  private static final Logger LOG = LoggerFactory.getLogger(StoreUnavailableHandler.class);
  private final HttpConfig config;

  StoreUnavailableHandler(HttpConfig config) {
    this.config = config;
  }

  @Override
  public HttpResponse<?> handle(HttpRequest request, StoreException e) {
    return response(request, e, config);
  }

  /** The 503 of a store fault, also for the filters that call the store before any route. */
  static MutableHttpResponse<Problem> response(
      HttpRequest<?> request, StoreException e, HttpConfig config) {
    LOG.warn("store unavailable on {} {}: {}", request.getMethod(), request.getPath(), e.getMessage());
    return ProblemType.STORE_UNAVAILABLE.retryLater(
        "the data store did not answer in time; retry later",
        request.getPath(),
        config.retryAfter());
  }
}
