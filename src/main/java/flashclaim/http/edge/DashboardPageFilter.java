package flashclaim.http.edge;

import flashclaim.http.FilterOrder;
import flashclaim.http.FilterPaths;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.filter.ConditionalFilter;

/**
 * Headers of the static pages (the dashboard, the reference claim page under {@code /app/}, the
 * admin console under {@code /admin/}): they handle tokens, so they run only their own script and
 * talk only to this service (no inline script, no other origin, no framing), and browsers
 * revalidate them so that a new version of the service serves a new page.
 */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
final class DashboardPageFilter implements Ordered, ConditionalFilter {
  static final String CONTENT_SECURITY_POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
          + " connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

  @Override
  public int getOrder() {
    return FilterOrder.PAGE_HEADERS;
  }

  @Override
  public boolean isEnabled(HttpRequest<?> request) {
    return FilterPaths.isPage(request);
  }

  @ResponseFilter
  void secure(MutableHttpResponse<?> response) {
    response.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    response.header("X-Content-Type-Options", "nosniff");
    response.header("Referrer-Policy", "no-referrer");
    response.header("Cache-Control", "no-cache");
  }
}
