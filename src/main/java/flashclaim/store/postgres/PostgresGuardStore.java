package flashclaim.store.postgres;

import flashclaim.guard.GuardStore;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.Optional;

/**
 * Guards as rows of {@code guards}: an insert that does nothing when the row exists, a delete
 * conditional on the version the creation returned. Rows of killed instances stay until the guard
 * algorithm takes them over as stale.
 */
@Singleton
@Requires(bean = PostgresCalls.class)
final class PostgresGuardStore implements GuardStore {
  private final PostgresCalls db;

  PostgresGuardStore(PostgresCalls db) {
    this.db = db;
  }

  @Override
  public Optional<Instant> create(String lockId, Instant expiresAt) {
    return VersionedRows.insertIfAbsent(
        db,
        "create a guard",
        "INSERT INTO guards (lock_id, expires_at, version) VALUES (?, ?, clock_timestamp())"
            + " ON CONFLICT (lock_id) DO NOTHING RETURNING version",
        lockId,
        expiresAt);
  }

  @Override
  public Optional<Holder> read(String lockId) {
    return db.call(
        "read a guard",
        connection -> {
          try (PreparedStatement select =
                  PostgresCalls.prepare(
                      connection, "SELECT version, expires_at FROM guards WHERE lock_id = ?", lockId);
              ResultSet row = select.executeQuery()) {
            return row.next()
                ? Optional.of(
                    new Holder(
                        PostgresCalls.instant(row, "version"),
                        PostgresCalls.instant(row, "expires_at")))
                : Optional.<Holder>empty();
          }
        });
  }

  @Override
  public boolean deleteIf(String lockId, Instant version) {
    return VersionedRows.deleteIf(db, "delete a guard", "guards", "lock_id", lockId, version);
  }
}
