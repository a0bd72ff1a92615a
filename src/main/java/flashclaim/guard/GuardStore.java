package flashclaim.guard;

import java.time.Instant;
import java.util.Optional;

/**
 * Port: the atomic steps of a modification guard that a store provides. The algorithm (stale
 * takeover, release of one's own version only) lives once in {@link ModificationGuard}.
 *
 * <p>A guard's <em>version</em> is the store's update time of its document: it identifies one
 * creation of it, so a delete conditioned on it never removes a guard that another request created
 * after this one was taken over. Every method may throw {@link flashclaim.StoreException} when the
 * store fails or does not answer within its call timeout; none retries on its own.
 */
public interface GuardStore {

  /**
   * Creates the guard document {@code lockId} holding its expiry, if no guard document has that id:
   * create-if-absent, atomic in the store, so of many concurrent creates exactly one succeeds.
   *
   * @return the version of the created document; empty when one exists already
   */
  Optional<Instant> create(String lockId, Instant expiresAt);

  /** The guard document as stored now, or empty when there is none. */
  Optional<Holder> read(String lockId);

  /**
   * Deletes the guard document if it is still at {@code version}: an update-time precondition,
   * never a blind delete.
   *
   * @return false when the document is gone or has another version (left as it is)
   */
  boolean deleteIf(String lockId, Instant version);

  /** A stored guard: its version and when it becomes stale. */
  record Holder(Instant version, Instant expiresAt) {}
}
