package flashclaim.store.firestore;

import com.google.cloud.firestore.Firestore;
import flashclaim.guard.GuardStore;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * Guards as documents {@code guards/{lockId}} holding only {@code expiresAt}, which is also the
 * field of the collection's TTL policy (README), so that Firestore itself deletes the guards of
 * killed instances eventually; until then the guard algorithm takes them over.
 */
@Singleton
@Requires(bean = Firestore.class)
final class FirestoreGuardStore implements GuardStore {
  private final Firestore db;
  private final FirestoreConfig config;

  FirestoreGuardStore(Firestore db, FirestoreConfig config) {
    this.db = db;
    this.config = config;
  }

  @Override
  public Optional<Instant> create(String lockId, Instant expiresAt) {
    return VersionedDocuments.createIfAbsent(
        FirestoreLayout.guard(db, lockId),
        Map.of(FirestoreLayout.EXPIRES_AT, FirestoreCalls.timestamp(expiresAt)),
        config.callTimeout(),
        "create a guard");
  }

  @Override
  public Optional<Holder> read(String lockId) {
    return VersionedDocuments.read(
            FirestoreLayout.guard(db, lockId), config.callTimeout(), "read a guard")
        .map(
            doc ->
                new Holder(
                    VersionedDocuments.versionOf(doc),
                    VersionedDocuments.expiryOf(doc)));
  }

  @Override
  public boolean deleteIf(String lockId, Instant version) {
    return VersionedDocuments.deleteIf(
        FirestoreLayout.guard(db, lockId), version, config.callTimeout(), "delete a guard");
  }
}
