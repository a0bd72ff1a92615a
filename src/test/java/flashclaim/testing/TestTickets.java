package flashclaim.testing;

import io.micronaut.context.annotation.Requires;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.filter.ServerFilterPhase;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Records every exchange of the claim route as the client saw it (the {@value #HEADER} and
 * Idempotency-Key it sent, the status and {@value #HEADER} it got), outside every other filter, so
 * that a test can check what a client sends back when told to retry. It changes nothing: the
 * tickets are the admission's own. Present only where {@value #PROPERTY} is true.
 */
@ServerFilter("/v1/campaigns/*/claims")
@Requires(property = TestTickets.PROPERTY, value = "true")
public final class TestTickets implements Ordered {
  public static final String PROPERTY = "flashclaim.test.tickets";
  public static final String HEADER = "Flashclaim-Ticket";
  private static final List<Exchange> EXCHANGES = new CopyOnWriteArrayList<>();

  /** One claim request and its answer. */
  public record Exchange(String sentTicket, String idempotencyKey, int status, String receivedTicket) {}

  /** The exchanges so far, in the order they were answered. */
  public static List<Exchange> exchanges() {
    return List.copyOf(EXCHANGES);
  }

  public static void reset() {
    EXCHANGES.clear();
  }

  @Override
  public int getOrder() {
    return ServerFilterPhase.FIRST.before() - 1; // outside the request id and load shedding
  }

  @ResponseFilter
  void record(HttpRequest<?> request, MutableHttpResponse<?> response) {
    EXCHANGES.add(
        new Exchange(
            request.getHeaders().get(HEADER),
            request.getHeaders().get("Idempotency-Key"),
            response.code(),
            response.getHeaders().get(HEADER)));
  }
}
