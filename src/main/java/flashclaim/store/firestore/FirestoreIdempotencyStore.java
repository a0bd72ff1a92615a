package flashclaim.store.firestore;

import com.google.cloud.firestore.Blob;
import com.google.cloud.firestore.DocumentSnapshot;
import com.google.cloud.firestore.Firestore;
import flashclaim.idempotency.IdempotencyRecord;
import flashclaim.idempotency.IdempotencyStore;
import flashclaim.idempotency.StoredResponse;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Idempotency records as documents {@code idempotency/{recordId}}: {@code state} (in-flight or
 * completed), {@code fingerprint}, {@code expiresAt} (the field of the collection's TTL policy) and,
 * once completed, {@code status, contentType, location, body, bodyStored}.
 */
@Singleton
@Requires(bean = Firestore.class)
final class FirestoreIdempotencyStore implements IdempotencyStore {
  private final Firestore db;
  private final FirestoreConfig config;

  FirestoreIdempotencyStore(Firestore db, FirestoreConfig config) {
    this.db = db;
    this.config = config;
  }

  @Override
  public Optional<Instant> create(String recordId, String fingerprint, Instant expiresAt) {
    return VersionedDocuments.createIfAbsent(
        FirestoreLayout.idempotencyRecord(db, recordId),
        Map.of(
            FirestoreLayout.STATE, FirestoreLayout.IN_FLIGHT,
            FirestoreLayout.FINGERPRINT, fingerprint,
            FirestoreLayout.EXPIRES_AT, FirestoreCalls.timestamp(expiresAt)),
        config.callTimeout(),
        "create an idempotency record");
  }

  @Override
  public Optional<IdempotencyRecord> read(String recordId) {
    return VersionedDocuments.read(
            FirestoreLayout.idempotencyRecord(db, recordId),
            config.callTimeout(),
            "read an idempotency record")
        .map(FirestoreIdempotencyStore::record);
  }

  @Override
  public boolean complete(
      String recordId, Instant version, StoredResponse response, Instant expiresAt) {
    Map<String, Object> fields = new HashMap<>();
    fields.put(FirestoreLayout.STATE, FirestoreLayout.COMPLETED);
    fields.put(FirestoreLayout.EXPIRES_AT, FirestoreCalls.timestamp(expiresAt));
    fields.put(FirestoreLayout.STATUS, response.status());
    fields.put(FirestoreLayout.CONTENT_TYPE, response.contentType());
    fields.put(FirestoreLayout.LOCATION, response.location());
    fields.put(FirestoreLayout.BODY_STORED, response.hasBody());
    fields.put(FirestoreLayout.BODY, response.hasBody() ? Blob.fromBytes(response.body()) : null);
    return VersionedDocuments.updateIf(
        FirestoreLayout.idempotencyRecord(db, recordId),
        version,
        fields,
        config.callTimeout(),
        "complete an idempotency record");
  }

  @Override
  public boolean deleteIf(String recordId, Instant version) {
    return VersionedDocuments.deleteIf(
        FirestoreLayout.idempotencyRecord(db, recordId),
        version,
        config.callTimeout(),
        "delete an idempotency record");
  }

  private static IdempotencyRecord record(DocumentSnapshot doc) {
    StoredResponse response = null;
    if (FirestoreLayout.COMPLETED.equals(doc.getString(FirestoreLayout.STATE))) {
      Long status = doc.getLong(FirestoreLayout.STATUS);
      Blob body = doc.getBlob(FirestoreLayout.BODY);
      response =
          new StoredResponse(
              status == null ? 0 : status.intValue(),
              doc.getString(FirestoreLayout.CONTENT_TYPE),
              doc.getString(FirestoreLayout.LOCATION),
              Boolean.TRUE.equals(doc.getBoolean(FirestoreLayout.BODY_STORED)) && body != null
                  ? body.toBytes()
                  : null);
    }
    return new IdempotencyRecord(
        doc.getString(FirestoreLayout.FINGERPRINT),
        VersionedDocuments.versionOf(doc),
        VersionedDocuments.expiryOf(doc),
        response);
  }
}
