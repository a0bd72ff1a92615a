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
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Records every exchange of the claim route as the client saw it (the {@value #HEADER} and
 * Idempotency-Key it sent, the status and {@value #HEADER} it got), outside every other filter, so
 * that a test can check what a client sends back when told to retry. A 503 that carries no ticket
 * gets one here ({@code test-ticket-<n>}), standing in for the admission's signed ticket. Present
 * only where {@value #PROPERTY} is true.
 */
@ServerFilter("/v1/campaigns/*/claims")
@Requires(property = TestTickets.PROPERTY, value = "true")
public final class TestTickets implements Ordered {
  public static final String PROPERTY = "flashclaim.test.tickets";
  public static final String HEADER = "Flashclaim-Ticket";
  private static final List<Exchange> EXCHANGES = new CopyOnWriteArrayList<>();
  private static final AtomicInteger ISSUED = new AtomicInteger();

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
    if (response.code() == 503 && !response.getHeaders().contains(HEADER)) {
      response.header(HEADER, "test-ticket-" + ISSUED.incrementAndGet());
    }
    EXCHANGES.add(
        new Exchange(
            request.getHeaders().get(HEADER),
            request.getHeaders().get("Idempotency-Key"),
            response.code(),
            response.getHeaders().get(HEADER)));
  }
}
