package flashclaim.http.shed;

import flashclaim.http.Callers;
import flashclaim.http.FilterOrder;
import flashclaim.http.FilterPaths;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.context.annotation.Requires;
import io.micronaut.health.HealthStatus;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.filter.ConditionalFilter;
import io.micronaut.management.endpoint.health.HealthEndpoint;
import io.micronaut.management.endpoint.health.filter.HealthResultFilter;
import io.micronaut.management.health.indicator.HealthResult;

/**
 * The HTTP status and the body of the health endpoints ({@code /health} and below).
 *
 * <ul>
 *   <li>The status follows the health status, as Micronaut's own {@link HealthResultFilter} does
 *       (which this filter replaces, because it is declared on three paths, see {@link
 *       FilterPaths}): the mapping of {@code endpoints.health.status.http-mapping}, else 503 for a
 *       status that is not operational (DOWN).
 *   <li>Details (which store, which indicator failed and why) are for admins. Anonymous callers
 *       get the status alone from the endpoint itself ({@code endpoints.health.details-visible:
 *       AUTHENTICATED}); this takes the details off the answer to any other caller without the
 *       admin role.
 * </ul>
 */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
@Requires(beans = HealthEndpoint.class)
@Replaces(HealthResultFilter.class)
final class HealthDetailsFilter implements Ordered, ConditionalFilter {
  private final HealthEndpoint endpoint;

  HealthDetailsFilter(HealthEndpoint endpoint) {
    this.endpoint = endpoint;
  }

  @Override
  public int getOrder() {
    return FilterOrder.HEALTH_DETAILS;
  }

  @Override
  public boolean isEnabled(HttpRequest<?> request) {
    return FilterPaths.isHealth(request);
  }

  @ResponseFilter
  void statusAndDetails(HttpRequest<?> request, MutableHttpResponse<?> response) {
    if (!(response.body() instanceof HealthResult result)) {
      return;
    }
    HealthStatus status = result.getStatus();
    HttpStatus mapped = endpoint.getStatusConfiguration().getHttpMapping().get(status.getName());
    if (mapped != null) {
      response.status(mapped);
    } else if (!status.getOperational().orElse(true)) {
      response.status(HttpStatus.SERVICE_UNAVAILABLE);
    }
    if (result.getDetails() != null && !Callers.isAdmin(request)) {
      response.body(HealthResult.builder(result.getName(), status).build());
    }
  }
}
