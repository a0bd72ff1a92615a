package flashclaim.admission;

import java.time.Duration;

/** Runs an action once after a delay: the end of a claim's wait for a slot. */
@FunctionalInterface
public interface WaitTimer {

  /**
   * Runs {@code action} once after {@code delay}, on a thread of the timer's own.
   *
   * @return cancels the action if it has not run yet
   */
  Runnable schedule(Duration delay, Runnable action);
}
