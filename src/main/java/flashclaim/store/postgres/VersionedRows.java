package flashclaim.store.postgres;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.Optional;

/**
 * Rows whose version is a timestamp that the database sets on every write ({@code guards}, {@code
 * idempotency}): create-if-absent and delete-if-unchanged, the two steps guards and idempotency
 * records share. A new version is {@code clock_timestamp()}, or one microsecond past the old one
 * if the clock has not moved on, so a version never repeats for a row.
 */
final class VersionedRows {
  /** The SQL of a new version for a row whose current version is {@code version}. */
  static final String NEXT_VERSION =
      "greatest(clock_timestamp(), version + interval '1 microsecond')";

  private VersionedRows() {}

  /**
   * Runs an {@code INSERT ... ON CONFLICT DO NOTHING RETURNING version}.
   *
   * @return the new row's version; empty when a row with its key exists
   */
  static Optional<Instant> insertIfAbsent(
      PostgresCalls db, String what, String insert, Object... parameters) {
    return db.call(
        what,
        connection -> {
          try (PreparedStatement statement = PostgresCalls.prepare(connection, insert, parameters);
              ResultSet row = statement.executeQuery()) {
            return row.next()
                ? Optional.of(PostgresCalls.instant(row, "version"))
                : Optional.<Instant>empty();
          }
        });
  }

  /** Deletes the row of {@code table} keyed {@code id} if it is still at {@code version}. */
  static boolean deleteIf(
      PostgresCalls db, String what, String table, String keyColumn, String id, Instant version) {
    return db.update(
            what,
            "DELETE FROM " + table + " WHERE " + keyColumn + " = ? AND version = ?",
            id,
            version)
        == 1;
  }
}
