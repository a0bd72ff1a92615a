package flashclaim.lock;

import io.micronaut.core.annotation.Nullable;
import java.time.Instant;
import java.util.Optional;

/**
 * Port: the atomic steps of a lease lock that a store must provide; the algorithm around them
 * (waiting, back-off, renewal, release in finally) lives once in {@link LockService}.
 *
 * <p>A lock is one record per lock id that is never deleted: it holds the fencing token of the
 * latest acquisition, the current owner (null while free) and when the lease ends. Every write is
 * conditional on the record being exactly as the caller last saw it ({@link LockState#version()},
 * {@link Lease#version()}): of two writers that saw the same record, at most one succeeds. That
 * is all mutual exclusion rests on; no store-side transaction and no lock wait is needed.
 *
 * <p>A lost race is a value (empty, false), never an exception. Every method may throw {@link
 * flashclaim.StoreException} when the store fails or does not answer within its timeout; then the
 * write may or may not have happened, and a lease that was taken without the caller knowing simply
 * runs out.
 */
public interface LockStore {

  /** The lock's record, or empty when the lock was never taken. A plain read that locks nothing. */
  Optional<LockState> read(String lockId);

  /**
   * Takes a lock that was never taken, with fencing token 1: create-if-absent.
   *
   * @return the lease; empty when the record exists (someone created it first)
   */
  Optional<Lease> create(String lockId, String owner, Instant lockedUntil);

  /**
   * Takes over a lock that {@code seen} shows free or expired, with fencing token {@code
   * seen.fencingToken() + 1}, if the record is still exactly {@code seen}.
   *
   * @return the lease; empty when the record changed since it was read (someone else won)
   */
  Optional<Lease> takeOver(LockState seen, String owner, Instant lockedUntil);

  /**
   * Moves the end of the holder's lease to {@code lockedUntil}, if the record is still exactly as
   * the holder last wrote it.
   *
   * @return the renewed lease; empty when someone else took the lock over
   */
  Optional<Lease> renew(Lease held, Instant lockedUntil);

  /**
   * Marks the lock free (no owner; the fencing token stays, so it never goes back), if the record
   * is still exactly as the holder last wrote it: a holder whose lease ran out and was taken over
   * cannot release its successor's lock.
   *
   * @return false when someone else took the lock over; nothing was written
   */
  boolean release(Lease held, Instant now);

  /**
   * A lock's record as read.
   *
   * @param owner the owner token of the current holder; null when released
   * @param version the store's version of the record, opaque to everyone but the store (Firestore:
   *     its update time)
   */
  record LockState(
      String lockId, long fencingToken, @Nullable String owner, Instant lockedUntil, Object version) {

    /** Whether anyone may take the lock at {@code now}: released, or its lease ran out. */
    public boolean isFreeAt(Instant now) {
      return owner == null || !now.isBefore(lockedUntil);
    }
  }

  /** A lease as its holder last wrote it; {@code version} as in {@link LockState}. */
  record Lease(String lockId, String owner, long fencingToken, Instant lockedUntil, Object version) {}
}
