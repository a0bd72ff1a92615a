package flashclaim.store.firestore;

import static flashclaim.store.firestore.FirestoreCalls.await;

import com.google.cloud.firestore.DocumentReference;
import com.google.cloud.firestore.DocumentSnapshot;
import com.google.cloud.firestore.Precondition;
import com.google.cloud.firestore.WriteResult;
import flashclaim.StoreException;
import io.grpc.Status;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * The atomic steps that the guard and idempotency adapters share, on one document whose update
 * time is its version: create-if-absent, and writes and deletes conditioned on the version.
 */
final class VersionedDocuments {
  private VersionedDocuments() {}

  /** Creates the document unless it exists; its version, or empty when it exists. */
  static Optional<Instant> createIfAbsent(
      DocumentReference doc, Map<String, Object> fields, Duration timeout, String what) {
    try {
      WriteResult created = await(() -> doc.create(fields), timeout, what);
      return Optional.of(FirestoreCalls.instant(created.getUpdateTime()));
    } catch (StoreException e) {
      if (FirestoreCalls.codeOf(e.getCause()) == Status.Code.ALREADY_EXISTS) {
        return Optional.empty();
      }
      throw e;
    }
  }

  /** The document, if it exists. */
  static Optional<DocumentSnapshot> read(DocumentReference doc, Duration timeout, String what) {
    DocumentSnapshot snapshot = await(doc::get, timeout, what);
    return snapshot.exists() ? Optional.of(snapshot) : Optional.empty();
  }

  /** The version of a document read. */
  static Instant versionOf(DocumentSnapshot snapshot) {
    return FirestoreCalls.instant(snapshot.getUpdateTime());
  }

  /** When a document read expires; one without {@code expiresAt} counts as expired. */
  static Instant expiryOf(DocumentSnapshot snapshot) {
    Instant expiresAt =
        FirestoreCalls.instant(snapshot.getTimestamp(FirestoreLayout.EXPIRES_AT));
    return expiresAt == null ? Instant.EPOCH : expiresAt;
  }

  /** Updates the document if it is still at {@code version}; false when it is gone or changed. */
  static boolean updateIf(
      DocumentReference doc,
      Instant version,
      Map<String, Object> fields,
      Duration timeout,
      String what) {
    return conditionally(
        () -> await(() -> doc.update(fields, precondition(version)), timeout, what));
  }

  /** Deletes the document if it is still at {@code version}; false when it is gone or changed. */
  static boolean deleteIf(DocumentReference doc, Instant version, Duration timeout, String what) {
    return conditionally(() -> await(() -> doc.delete(precondition(version)), timeout, what));
  }

  private static Precondition precondition(Instant version) {
    return Precondition.updatedAt(FirestoreCalls.timestamp(version));
  }

  private static boolean conditionally(Runnable write) {
    try {
      write.run();
      return true;
    } catch (StoreException e) {
      Status.Code code = FirestoreCalls.codeOf(e.getCause());
      if (code == Status.Code.FAILED_PRECONDITION || code == Status.Code.NOT_FOUND) {
        return false;
      }
      throw e;
    }
  }
}
