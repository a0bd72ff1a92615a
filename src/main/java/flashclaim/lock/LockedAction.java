package flashclaim.lock;

/** What runs under a lock. It may throw; the lock is released either way. */
@FunctionalInterface
public interface LockedAction<T> {
  T run(HeldLock lock);
}
