package flashclaim.lock;

/** A lock as its action sees it while it runs. */
public interface HeldLock {

  /** The key the lock serializes. */
  String key();

  /**
   * The fencing token of this acquisition: larger than the token of every earlier acquisition of
   * the same key, on any instance. A resource that remembers the largest token it has seen can
   * refuse the writes of a holder whose lease ran out and was taken over (a paused process that
   * wakes up late), which the lock itself cannot stop.
   */
  long fencingToken();

  /**
   * True once this holder knows that it lost the lock: a renewal found that someone else took it
   * over after the lease ran out (the store was unreachable for longer than the lease, or the
   * process was paused). The action should then stop writing; false does not prove the lease is
   * still valid at this very moment, only that no takeover has been seen.
   */
  boolean isLost();
}
