package flashclaim.http;

import io.micronaut.http.HttpRequest;
import io.micronaut.web.router.RouteAttributes;
import io.micronaut.web.router.RouteMatch;
import java.lang.annotation.Annotation;
import java.util.Optional;

/**
 * The paths of this service's filters, as regular expressions ({@code FilterPatternStyle.REGEX}).
 * Micronaut matches every filter's patterns against every request's path; an Ant pattern ({@code
 * /v1/**}) is tokenized, with the path, at each match, a regular expression is compiled once. With
 * a dozen filters that is a measurable part of a claim's CPU.
 */
final class FilterPaths {
  /** Every path, also non-canonical ones (Ant's {@code /**}). */
  static final String ALL = ".*";

  /** The API (Ant's {@code /v1/**}). */
  static final String API = "/v1(/.*)?";

  /** The health endpoints (Ant's {@code /health} and {@code /health/**}). */
  static final String HEALTH = "/health(/.*)?";

  /** The static pages (Ant's {@code /dashboard/**} and {@code /app/**}). */
  static final String PAGES = "/(dashboard|app)(/.*)?";

  private FilterPaths() {}

  /** The route of the request, if its method carries {@code marker}. */
  static Optional<RouteMatch<?>> routeMarked(
      HttpRequest<?> request, Class<? extends Annotation> marker) {
    return RouteAttributes.getRouteMatch(request)
        .filter(r -> r.getAnnotationMetadata().hasAnnotation(marker));
  }
}
