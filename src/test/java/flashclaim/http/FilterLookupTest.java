package flashclaim.http;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.InvalidInputException;
import flashclaim.StoreException;
import flashclaim.campaign.TooManyCodesException;
import flashclaim.testing.ServiceInstance;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.filter.GenericHttpFilter;
import io.micronaut.security.authentication.AuthorizationException;
import io.micronaut.web.router.Router;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the router does per request stays cheap.
 *
 * <ul>
 *   <li>Every filter of the service is declared on every path and chooses its requests in {@code
 *       isEnabled} ({@link FilterPaths}), so the router hands each request the one list it sorted
 *       at startup. A filter declared with a path pattern or a method list (ours, or one a
 *       dependency brings) makes the router match and sort all filters per request, and this test
 *       fails.
 *   <li>Refusals by security (401, 403), store faults (503), broken rules (400) and too many codes
 *       (413) are answered by error routes
 *       ({@link ErrorRoutes}), not by exception handlers that Micronaut looks up among all beans
 *       for each failure.
 * </ul>
 */
class FilterLookupTest {

  @Test
  void everyRequestGetsTheOneFilterListSortedAtStartup() {
    try (ServiceInstance instance = ServiceInstance.start(Map.of())) {
      Router router = instance.context().getBean(Router.class);
      List<GenericHttpFilter> claim =
          router.findFilters(HttpRequest.POST("/v1/campaigns/c1/claims", ""));
      List<HttpRequest<?>> others =
          List.of(
              HttpRequest.GET("/health"),
              HttpRequest.GET("/health/readiness"),
              HttpRequest.GET("/dashboard/index.html"),
              HttpRequest.PUT("/v1/admin/campaigns/c1", ""),
              HttpRequest.GET("/no/such/path"));
      for (HttpRequest<?> other : others) {
        assertThat(router.findFilters(other)).as(other.getPath()).isSameAs(claim);
      }
      // The service's own filters are in it: request id, canonical path, body limit, refused body,
      // problem body, load shedding, claim shortcut and admission, idempotency, guard, App Check,
      // health, pages; Micronaut's security, CORS and metrics filters besides.
      assertThat(claim.stream().map(Object::toString).filter(f -> f.contains("flashclaim.http.")))
          .extracting(f -> f.replaceAll("(?s).*bean=flashclaim\\.http\\.(\\w+)@.*", "$1"))
          .contains(
              "RequestIdFilter",
              "CanonicalPathFilter",
              "BodyLimitFilter",
              "RefusedBodyFilter",
              "ProblemBodyFilter",
              "LoadShedFilter",
              "ClaimShortcutFilter",
              "ClaimAdmissionFilter",
              "IdempotencyFilter",
              "ModificationGuardFilter",
              "AppCheckFilter",
              "HealthDetailsFilter",
              "DashboardPageFilter");
    }
  }

  @Test
  void refusalsAndStoreFaultsHaveErrorRoutes() {
    try (ServiceInstance instance = ServiceInstance.start(Map.of())) {
      Router router = instance.context().getBean(Router.class);
      HttpRequest<?> claim = HttpRequest.POST("/v1/campaigns/c1/claims", "");
      for (Throwable failure :
          List.<Throwable>of(
              new AuthorizationException(null),
              new StoreException("the store did not answer", new RuntimeException()),
              new InvalidInputException("id", "not an id"),
              new TooManyCodesException(2, 1))) {
        // Micronaut asks for a route of the controller, then for a global one, then for a handler.
        assertThat(router.findErrorRoute(ClaimController.class, failure, claim)).isEmpty();
        assertThat(router.findErrorRoute(failure, claim))
            .as(failure.getClass().getSimpleName())
            .hasValueSatisfying(
                route -> assertThat(route.getRouteInfo().getDeclaringType()).isEqualTo(ErrorRoutes.class));
      }
    }
  }
}
