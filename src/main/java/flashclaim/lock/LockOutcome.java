package flashclaim.lock;

import java.time.Duration;

/**
 * What {@link LockService#runWithLock} came to. Not getting the lock is an expected outcome, a
 * value; store faults are {@link flashclaim.StoreException}, and whatever the action throws is
 * thrown on.
 */
public sealed interface LockOutcome<T> {

  /**
   * The lock was taken and the action ran to its end.
   *
   * @param result what the action returned
   * @param fencingToken the token of this acquisition (see {@link HeldLock#fencingToken()})
   * @param leaseLost true when, before the action ended, the lock was taken over by someone else
   *     (the lease ran out without renewal): mutual exclusion was not guaranteed for the whole run
   */
  record Ran<T>(T result, long fencingToken, boolean leaseLost) implements LockOutcome<T> {}

  /** Someone else held the lock for the whole wait; the action did not run. */
  record NotAcquired<T>(Duration waited) implements LockOutcome<T> {}
}
