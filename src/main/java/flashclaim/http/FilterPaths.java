package flashclaim.http;

import io.micronaut.http.HttpMethod;
import io.micronaut.http.HttpRequest;
import io.micronaut.web.router.RouteAttributes;
import io.micronaut.web.router.RouteMatch;
import java.lang.annotation.Annotation;
import java.util.Optional;

/**
 * Where this service's filters apply. Every filter is declared on every path ({@link
 * io.micronaut.http.annotation.ServerFilter#MATCH_ALL_PATTERN}) and says in its {@code isEnabled}
 * (a {@link io.micronaut.http.filter.ConditionalFilter}) which requests it takes, with these
 * tests. Micronaut sorts the filters that match every path once, at startup; one filter with a
 * pattern or a method list makes it match every filter's patterns against every request's path and
 * sort the result again, per request (measured: a tenth of the event loop's time of a claim).
 * {@code FilterLookupTest} keeps it so.
 */
public final class FilterPaths {
  private FilterPaths() {}

  /** The API: {@code /v1} and below. */
  public static boolean isApi(HttpRequest<?> request) {
    return under(request.getPath(), "/v1");
  }

  /** A write to the API: POST, PUT, PATCH or DELETE on {@code /v1} and below. */
  public static boolean isApiWrite(HttpRequest<?> request) {
    HttpMethod method = request.getMethod();
    return (method == HttpMethod.POST
            || method == HttpMethod.PUT
            || method == HttpMethod.PATCH
            || method == HttpMethod.DELETE)
        && isApi(request);
  }

  /** A POST to the API. */
  public static boolean isApiPost(HttpRequest<?> request) {
    return request.getMethod() == HttpMethod.POST && isApi(request);
  }

  /** The health endpoints: {@code /health} and below. */
  public static boolean isHealth(HttpRequest<?> request) {
    return under(request.getPath(), "/health");
  }

  /** The static pages: {@code /dashboard}, {@code /app} and {@code /admin}, and below. */
  public static boolean isPage(HttpRequest<?> request) {
    String path = request.getPath();
    return under(path, "/dashboard") || under(path, "/app") || under(path, "/admin");
  }

  /** Whether {@code path} is {@code base} or a path below it. */
  public static boolean under(String path, String base) {
    return path.startsWith(base)
        && (path.length() == base.length() || path.charAt(base.length()) == '/');
  }

  /** Whether the request is to the claim route ({@link ClaimRoute}). */
  public static boolean isClaim(HttpRequest<?> request) {
    return routeMarked(request, ClaimRoute.class).isPresent();
  }

  /** The route of the request, if its method or controller carries {@code marker}. */
  public static Optional<RouteMatch<?>> routeMarked(
      HttpRequest<?> request, Class<? extends Annotation> marker) {
    return RouteAttributes.getRouteMatch(request)
        .filter(r -> r.getAnnotationMetadata().hasAnnotation(marker));
  }
}
