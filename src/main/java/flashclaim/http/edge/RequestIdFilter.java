package flashclaim.http.edge;

import flashclaim.http.FilterOrder;
import io.micronaut.core.order.Ordered;
import io.micronaut.core.propagation.MutablePropagatedContext;
import io.micronaut.core.propagation.ThreadPropagatedContextElement;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import org.slf4j.MDC;

/**
 * Gives every request an id: the caller's {@value #HEADER} when it is sane (1 to 128 characters
 * of letters, digits and {@code . _ : -}), else a random UUID. The id is echoed in the response's
 * {@value #HEADER} and is in the MDC as {@value #MDC_KEY} on every thread that works on the
 * request (Micronaut's context propagation), so each log line of a request carries it.
 */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
public final class RequestIdFilter implements Ordered {
  public static final String HEADER = "X-Request-Id";
  static final String MDC_KEY = "requestId";
  private static final String ATTRIBUTE = RequestIdFilter.class.getName() + ".id";
  private static final Pattern SANE = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

  @Override
  public int getOrder() {
    return FilterOrder.REQUEST_ID;
  }

  @RequestFilter
  void assign(HttpRequest<?> request, MutablePropagatedContext context) {
    String id = idOf(request.getHeaders().get(HEADER));
    request.setAttribute(ATTRIBUTE, id);
    context.add(new InMdc(id));
  }

  /** The id of a request that sent {@code given} (null: none) as its {@value #HEADER}. */
  public static String idOf(String given) {
    return given != null && SANE.matcher(given).matches() ? given : randomId();
  }

  /** A random UUID; an id needs no cryptographic randomness, and SecureRandom locks. */
  private static String randomId() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    long most = random.nextLong() & ~0xF000L | 0x4000L; // version 4
    long least = random.nextLong() & ~(0xC0L << 56) | (0x80L << 56); // IETF variant
    return new UUID(most, least).toString();
  }

  /**
   * The id in the MDC of every thread that works on the request: only this one key is set and put
   * back, where Micronaut's {@code MdcPropagationContext} copies the whole MDC at each hop.
   */
  private record InMdc(String id) implements ThreadPropagatedContextElement<String> {
    @Override
    public String updateThreadContext() {
      String previous = MDC.get(MDC_KEY);
      MDC.put(MDC_KEY, id);
      return previous;
    }

    @Override
    public void restoreThreadContext(String previous) {
      if (previous == null) {
        MDC.remove(MDC_KEY);
      } else {
        MDC.put(MDC_KEY, previous);
      }
    }
  }

  @ResponseFilter
  void echo(HttpRequest<?> request, MutableHttpResponse<?> response) {
    request.getAttribute(ATTRIBUTE, String.class).ifPresent(id -> response.header(HEADER, id));
  }
}
