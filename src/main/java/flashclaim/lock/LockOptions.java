package flashclaim.lock;

import java.time.Duration;

/**
 * How one {@link LockService#runWithLock} call takes its lock. {@link LockService#defaults()} gives
 * the configured ones.
 *
 * @param lease how long the lock is held without renewal; renewed while the action runs
 * @param waitTimeout how long to wait for a lock that someone else holds; zero tries once
 */
public record LockOptions(Duration lease, Duration waitTimeout) {
  public LockOptions {
    if (lease == null || lease.compareTo(Duration.ZERO) <= 0) {
      throw new IllegalArgumentException("a lock's lease must be positive");
    }
    if (waitTimeout == null || waitTimeout.isNegative()) {
      throw new IllegalArgumentException("a lock's wait timeout must not be negative");
    }
  }

  public LockOptions withLease(Duration lease) {
    return new LockOptions(lease, waitTimeout);
  }

  public LockOptions withWaitTimeout(Duration waitTimeout) {
    return new LockOptions(lease, waitTimeout);
  }
}
