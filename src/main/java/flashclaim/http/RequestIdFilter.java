package flashclaim.http;

import io.micronaut.context.propagation.slf4j.MdcPropagationContext;
import io.micronaut.core.order.Ordered;
import io.micronaut.core.propagation.MutablePropagatedContext;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Filter;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.filter.ServerFilterPhase;
import java.util.UUID;
import java.util.regex.Pattern;
import org.slf4j.MDC;

/**
 * Gives every request an id: the caller's {@value #HEADER} when it is sane (1 to 128 characters
 * of letters, digits and {@code . _ : -}), else a random UUID. The id is echoed in the response's
 * {@value #HEADER} and is in the MDC as {@value #MDC_KEY} on every thread that works on the
 * request (Micronaut's context propagation), so each log line of a request carries it.
 */
@ServerFilter(Filter.MATCH_ALL_PATTERN)
final class RequestIdFilter implements Ordered {
  static final String HEADER = "X-Request-Id";
  static final String MDC_KEY = "requestId";
  private static final String ATTRIBUTE = RequestIdFilter.class.getName() + ".id";
  private static final Pattern SANE = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

  @Override
  public int getOrder() {
    return ServerFilterPhase.FIRST.before(); // outside load shedding: a shed request has one too
  }

  @RequestFilter
  void assign(HttpRequest<?> request, MutablePropagatedContext context) {
    String given = request.getHeaders().get(HEADER);
    String id = given != null && SANE.matcher(given).matches() ? given : UUID.randomUUID().toString();
    request.setAttribute(ATTRIBUTE, id);
    MDC.put(MDC_KEY, id);
    try {
      context.add(new MdcPropagationContext());
    } finally {
      MDC.remove(MDC_KEY);
    }
  }

  @ResponseFilter
  void echo(HttpRequest<?> request, MutableHttpResponse<?> response) {
    request.getAttribute(ATTRIBUTE, String.class).ifPresent(id -> response.header(HEADER, id));
  }
}
