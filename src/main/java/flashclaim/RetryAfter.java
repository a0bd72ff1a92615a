package flashclaim;

import java.time.Duration;

/**
 * Retry-After as the header carries it: whole seconds, rounded up, at least 1 (RFC 9110); and the
 * same wait in milliseconds, as {@code Flashclaim-Retry-After-Ms} carries it.
 */
public final class RetryAfter {
  private RetryAfter() {}

  /** The seconds the header says for a wait of {@code wait}. */
  public static long wholeSeconds(Duration wait) {
    return Math.max(1, (wait.toMillis() + 999) / 1000);
  }

  /** The milliseconds of {@code Flashclaim-Retry-After-Ms} for a wait of {@code wait}: at least 1. */
  public static long millis(Duration wait) {
    return Math.max(1, wait.plusNanos(999_999).toMillis());
  }
}
