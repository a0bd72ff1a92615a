package flashclaim.idempotency;

import java.time.Instant;
import java.util.Optional;

/**
 * Port: the atomic steps of idempotency keys that a store provides; the rules (fingerprints,
 * expiry, replay) live once in {@link IdempotencyService}.
 *
 * <p>A record's <em>version</em> is the store's update time of its document. Every write but the
 * first is conditioned on the version the writer knows, so a request whose record was taken over
 * (it outlived the in-flight timeout) can neither complete nor delete its successor's record.
 * Every method may throw {@link flashclaim.StoreException} when the store fails or does not answer
 * within its call timeout; none retries on its own.
 */
public interface IdempotencyStore {

  /**
   * Creates the record {@code recordId} in the in-flight state, if no record has that id:
   * create-if-absent, atomic in the store, so of concurrent requests with one key exactly one
   * proceeds.
   *
   * @return the version of the created record; empty when one exists already
   */
  Optional<Instant> create(String recordId, String fingerprint, Instant expiresAt);

  /** The record as stored now, expired or not, or empty when there is none. */
  Optional<IdempotencyRecord> read(String recordId);

  /**
   * Stores the result into the in-flight record at {@code version}, with its new expiry.
   *
   * @return false when the record is gone or has another version (nothing was written)
   */
  boolean complete(String recordId, Instant version, StoredResponse response, Instant expiresAt);

  /**
   * Deletes the record if it is still at {@code version}.
   *
   * @return false when it is gone or has another version (left as it is)
   */
  boolean deleteIf(String recordId, Instant version);
}
