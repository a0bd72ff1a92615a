package flashclaim.http;

import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.filter.FilterPatternStyle;
import io.micronaut.management.health.indicator.HealthResult;

/**
 * Health details (which store, which indicator failed and why) are for admins. Anonymous callers
 * get the status alone from the endpoint itself ({@code endpoints.health.details-visible:
 * AUTHENTICATED}); this takes the details off the answer to any other caller without the admin
 * role. The HTTP status (503 when DOWN) is left as it is.
 */
@ServerFilter(value = FilterPaths.HEALTH, patternStyle = FilterPatternStyle.REGEX)
final class HealthDetailsFilter {

  @ResponseFilter
  void statusOnly(HttpRequest<?> request, MutableHttpResponse<?> response) {
    if (Callers.isAdmin(request)) {
      return;
    }
    response
        .getBody(HealthResult.class)
        .filter(result -> result.getDetails() != null)
        .ifPresent(
            result ->
                response.body(HealthResult.builder(result.getName(), result.getStatus()).build()));
  }
}
