package flashclaim.http;

import flashclaim.appcheck.AppCheckMode;
import flashclaim.appcheck.AppCheckVerifier;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.filter.ConditionalFilter;
import io.micronaut.http.filter.FilterContinuation;
import io.micronaut.web.router.RouteMatch;
import io.micronaut.web.router.UriRouteMatch;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;

/**
 * Firebase App Check on the claim route: the {@value #HEADER} token is checked by {@link
 * AppCheckVerifier}; in {@code enforce} mode a claim without a valid one is answered 401 {@code
 * app-check-required} and nothing else of it runs. In {@code monitor} mode every claim goes on
 * (the verifier counts and logs), in {@code off} mode this filter does not run.
 *
 * <p>The claim is recognised by the route it was matched to, not by the spelling of its path, so
 * that no variant of the path passes unchecked. It runs after authentication and before
 * everything that touches the store (idempotency keys, the modification guard, the claim), on the
 * event loop: it never blocks, a fetch of App Check's keys completes its future from another
 * thread.
 */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
final class AppCheckFilter implements Ordered, ConditionalFilter {
  static final String HEADER = "X-Firebase-AppCheck";
  /** The routes that need a token. */
  static final String CLAIM_ROUTE = "/v1/campaigns/{id}/claims";
  /** Before the first filter that reads or writes the store. */
  static final int ORDER = IdempotencyFilter.ORDER - 1;

  private final AppCheckVerifier verifier;

  AppCheckFilter(AppCheckVerifier verifier) {
    this.verifier = verifier;
  }

  @Override
  public int getOrder() {
    return ORDER;
  }

  @Override
  public boolean isEnabled(HttpRequest<?> request) {
    return verifier.mode() != AppCheckMode.OFF && FilterPaths.isApiPost(request);
  }

  /**
   * The claim goes on, or is answered 401. An around filter (a continuation) rather than a future
   * of a nullable response: Micronaut 4.10 fails on a future that completes with null after the
   * filter returned it, which is what a wait for the keys would do.
   */
  @RequestFilter
  Publisher<MutableHttpResponse<?>> check(
      HttpRequest<?> request,
      @Nullable RouteMatch<?> route,
      FilterContinuation<Publisher<MutableHttpResponse<?>>> next) {
    if (!(route instanceof UriRouteMatch<?, ?> matched)
        || !CLAIM_ROUTE.equals(matched.getRouteInfo().getUriMatchTemplate().toString())) {
      return next.proceed();
    }
    return Mono.fromFuture(verifier.verify(request.getHeaders().getAll(HEADER)))
        .flatMap(v -> verifier.admits(v) ? Mono.from(next.proceed()) : Mono.just(refused(request)));
  }

  private static MutableHttpResponse<?> refused(HttpRequest<?> request) {
    return ProblemType.APP_CHECK_REQUIRED.response(
        "claims need a valid Firebase App Check token in the " + HEADER + " header",
        request.getPath());
  }
}
