package flashclaim;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * The moment by which a request must have its answer (G6), and the one rule for every store call
 * made on its behalf: a call starts only while time is left, and waits for the store at most what
 * is left, never longer than the store's own call timeout ({@link #timeout}).
 *
 * <p>A claim's deadline counts from the moment the request was admitted; calls that no request
 * waits for (admin reads, background work) run under {@link #none()}, bounded by the call timeout
 * alone.
 */
public final class Deadline {
  private static final Deadline NONE = new Deadline(null, Clock.systemUTC());

  private final Instant at;
  private final Clock clock;

  private Deadline(Instant at, Clock clock) {
    this.at = at;
    this.clock = clock;
  }

  /** The deadline {@code budget} after {@code start}, judged by {@code clock}. */
  public static Deadline after(Instant start, Duration budget, Clock clock) {
    return new Deadline(start.plus(budget), clock);
  }

  /** No deadline: every call may take its full call timeout. */
  public static Deadline none() {
    return NONE;
  }

  /** The moment itself; {@link Instant#MAX} for {@link #none()}. */
  public Instant instant() {
    return at == null ? Instant.MAX : at;
  }

  /** True once the moment has come: no store call may start any more. */
  public boolean passed() {
    return at != null && !clock.instant().isBefore(at);
  }

  /**
   * How long a store call that starts now may wait: what is left of the deadline, rounded up to a
   * whole millisecond (so that a call cut at its timeout finds the deadline passed), and at most
   * {@code callTimeout}.
   *
   * @return {@link Duration#ZERO} once the deadline has passed: the call must not start
   */
  public Duration timeout(Duration callTimeout) {
    if (at == null) {
      return callTimeout;
    }
    Duration left = Duration.between(clock.instant(), at);
    if (left.isNegative() || left.isZero()) {
      return Duration.ZERO;
    }
    if (left.compareTo(callTimeout) >= 0) {
      return callTimeout;
    }
    Duration wholeMillis = Duration.ofMillis((left.toNanos() + 999_999) / 1_000_000);
    return wholeMillis.compareTo(callTimeout) < 0 ? wholeMillis : callTimeout;
  }

  @Override
  public String toString() {
    return at == null ? "Deadline[none]" : "Deadline[" + at + "]";
  }
}
