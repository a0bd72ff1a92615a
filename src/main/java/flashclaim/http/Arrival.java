package flashclaim.http;

import io.micronaut.http.HttpRequest;
import java.time.Clock;
import java.time.Instant;

/**
 * When a request reached this instance, stamped by the first filter of the API, in two readings:
 * its place in the order of arrival ({@link #seen}: when that filter saw it, or when a trusted
 * front end received it; a new user's first arrival), and when it most likely came ({@link #of}:
 * the moment the filter saw it less how far behind the event loop that read it was),
 * which every step whose deadline counts from the request's arrival reads, so that time spent
 * unread, or waiting for a slot or a thread, is part of it (G6).
 */
public final class Arrival {
  private static final String SEEN = Arrival.class.getName() + ".seen";
  private static final String CAME = Arrival.class.getName() + ".came";

  private Arrival() {}

  /**
   * A request's two readings of arrival.
   *
   * @param seen its place in the order of arrival
   * @param came when it most likely came
   */
  public record Times(Instant seen, Instant came) {}

  /**
   * Notes that the request takes its place in the order of arrival at {@code seen} and most likely
   * came at {@code came}.
   */
  public static void stamp(HttpRequest<?> request, Instant seen, Instant came) {
    request.setAttribute(SEEN, seen);
    request.setAttribute(CAME, came);
  }

  /** When the request most likely came; now, for a request that was not stamped. */
  public static Instant of(HttpRequest<?> request, Clock clock) {
    return request.getAttribute(CAME, Instant.class).orElseGet(clock::instant);
  }

  /** When the first filter saw the request; now, for a request that was not stamped. */
  public static Instant seen(HttpRequest<?> request, Clock clock) {
    return request.getAttribute(SEEN, Instant.class).orElseGet(clock::instant);
  }
}
