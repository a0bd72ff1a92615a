package flashclaim.guard;

import java.time.Duration;

/** What trying to enter a guarded resource came to; losing the race is a value, not an error. */
public sealed interface GuardEntry {

  /** This request holds the guard and must {@link ModificationGuard#leave leave} it. */
  record Entered(Guard guard) implements GuardEntry {}

  /** Another request modifies the resource now; the client may retry after {@code retryAfter}. */
  record Busy(Duration retryAfter) implements GuardEntry {}
}
