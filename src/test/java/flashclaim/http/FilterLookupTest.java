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
import java.lang.reflect.Field;
import java.util.ArrayList;
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
 *       ({@code ErrorRoutes}), not by exception handlers that Micronaut looks up among all beans
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
      // The service's own filters are in it (a filter of requests and answers counts once), in the
      // order of FilterOrder, with Micronaut's security filter between the claims' pacing and the
      // body limit (and CORS and metrics besides).
      assertThat(
              claim.stream()
                  .map(Object::toString)
                  .filter(f -> f.contains("bean=flashclaim.http.") || f.contains("SecurityFilter"))
                  .map(f -> f.replaceAll("(?s).*bean=[\\w.]*\\.(\\w+)@.*", "$1"))
                  .distinct())
          .containsExactly(
              "ProblemBodyFilter",
              "RequestIdFilter",
              "RefusedBodyFilter",
              "CanonicalPathFilter",
              "DashboardPageFilter",
              "HealthDetailsFilter",
              "ReservedCampaignFilter",
              "LoadShedFilter",
              "ClaimPacingFilter",
              "SecurityFilter",
              "BodyLimitFilter",
              "ClaimEdgeFilter",
              "IdempotencyFilter",
              "ModificationGuardFilter");
    }
  }

  /** {@link FilterOrder} is one table without ties: each filter has an order of its own. */
  @Test
  void everyFilterHasAnOrderOfItsOwn() throws IllegalAccessException {
    List<Integer> orders = new ArrayList<>();
    for (Field field : FilterOrder.class.getFields()) {
      orders.add(field.getInt(null));
    }
    assertThat(orders).hasSize(13).doesNotHaveDuplicates().isSorted();
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
        assertThat(router.findErrorRoute(type("claim.ClaimController"), failure, claim)).isEmpty();
        assertThat(router.findErrorRoute(failure, claim))
            .as(failure.getClass().getSimpleName())
            .hasValueSatisfying(
                route ->
                    assertThat(route.getRouteInfo().getDeclaringType())
                        .isEqualTo(type("problem.ErrorRoutes")));
      }
    }
  }

  /** A class of the HTTP layer by its name under {@code flashclaim.http}. */
  private static Class<?> type(String name) {
    try {
      return Class.forName("flashclaim.http." + name);
    } catch (ClassNotFoundException e) {
      throw new AssertionError(e);
    }
  }
}
