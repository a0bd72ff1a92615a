package flashclaim.store.postgres;

import flashclaim.idempotency.IdempotencyRecord;
import flashclaim.idempotency.IdempotencyStore;
import flashclaim.idempotency.StoredResponse;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.Optional;

/**
 * Idempotency records as rows of {@code idempotency}: in flight while {@code status} is null,
 * completed with the stored response. Creation is an insert that does nothing when the row exists;
 * completion and deletion are conditional on the version.
 */
@Singleton
@Requires(bean = PostgresCalls.class)
final class PostgresIdempotencyStore implements IdempotencyStore {
  private final PostgresCalls db;

  PostgresIdempotencyStore(PostgresCalls db) {
    this.db = db;
  }

  @Override
  public Optional<Instant> create(String recordId, String fingerprint, Instant expiresAt) {
    return VersionedRows.insertIfAbsent(
        db,
        "create an idempotency record",
        "INSERT INTO idempotency (record_id, fingerprint, expires_at, version)"
            + " VALUES (?, ?, ?, clock_timestamp())"
            + " ON CONFLICT (record_id) DO NOTHING RETURNING version",
        recordId,
        fingerprint,
        expiresAt);
  }

  @Override
  public Optional<IdempotencyRecord> read(String recordId) {
    return db.call(
        "read an idempotency record",
        connection -> {
          try (PreparedStatement select =
                  PostgresCalls.prepare(
                      connection,
                      "SELECT fingerprint, expires_at, version, status, content_type, location,"
                          + " body, body_stored FROM idempotency WHERE record_id = ?",
                      recordId);
              ResultSet row = select.executeQuery()) {
            if (!row.next()) {
              return Optional.<IdempotencyRecord>empty();
            }
            int status = row.getInt("status");
            StoredResponse response =
                row.wasNull()
                    ? null
                    : new StoredResponse(
                        status,
                        row.getString("content_type"),
                        row.getString("location"),
                        row.getBoolean("body_stored") ? row.getBytes("body") : null);
            return Optional.of(
                new IdempotencyRecord(
                    row.getString("fingerprint"),
                    PostgresCalls.instant(row, "version"),
                    PostgresCalls.instant(row, "expires_at"),
                    response));
          }
        });
  }

  @Override
  public boolean complete(
      String recordId, Instant version, StoredResponse response, Instant expiresAt) {
    return db.update(
            "complete an idempotency record",
            "UPDATE idempotency SET status = ?, content_type = ?, location = ?, body = ?,"
                + " body_stored = ?, expires_at = ?, version = "
                + VersionedRows.NEXT_VERSION
                + " WHERE record_id = ? AND version = ?",
            response.status(),
            response.contentType(),
            response.location(),
            response.body(),
            response.hasBody(),
            expiresAt,
            recordId,
            version)
        == 1;
  }

  @Override
  public boolean deleteIf(String recordId, Instant version) {
    return VersionedRows.deleteIf(
        db, "delete an idempotency record", "idempotency", "record_id", recordId, version);
  }
}
