package flashclaim.http;

import io.micronaut.http.HttpRequest;
import java.time.Clock;
import java.time.Instant;

/**
 * When this instance let a request in: stamped by the first filter of the API, read by every step
 * whose deadline counts from there, so that time spent waiting for a slot or a thread is part of it
 * (G6).
 */
public final class Arrival {
  private static final String ATTRIBUTE = Arrival.class.getName();

  private Arrival() {}

  /** Notes that the request was let in at {@code at}. */
  public static void stamp(HttpRequest<?> request, Instant at) {
    request.setAttribute(ATTRIBUTE, at);
  }

  /** When the request was let in; now, for a request that was not stamped. */
  public static Instant of(HttpRequest<?> request, Clock clock) {
    return request.getAttribute(ATTRIBUTE, Instant.class).orElseGet(clock::instant);
  }
}
