package flashclaim.store.postgres;

import flashclaim.lock.LockStore;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.Optional;

/**
 * Locks as rows of {@code locks}. No transaction and no row lock is held between calls: the first
 * acquisition is an insert that does nothing when the row exists, every later write an update
 * conditional on {@code version}, the counter every write increments. Of two writers that saw the
 * same version, PostgreSQL lets exactly one update match (the other re-checks the row after the
 * first commits and finds another version).
 */
@Singleton
@Requires(bean = PostgresCalls.class)
final class PostgresLockStore implements LockStore {
  private final PostgresCalls db;

  PostgresLockStore(PostgresCalls db) {
    this.db = db;
  }

  @Override
  public Optional<LockState> read(String lockId) {
    return db.call(
        "read a lock",
        connection -> {
          try (PreparedStatement select =
                  PostgresCalls.prepare(
                      connection,
                      "SELECT fence, owner, locked_until, version FROM locks WHERE lock_id = ?",
                      lockId);
              ResultSet row = select.executeQuery()) {
            if (!row.next()) {
              return Optional.empty();
            }
            return Optional.of(
                new LockState(
                    lockId,
                    row.getLong("fence"),
                    row.getString("owner"),
                    PostgresCalls.instant(row, "locked_until"),
                    row.getLong("version")));
          }
        });
  }

  @Override
  public Optional<Lease> create(String lockId, String owner, Instant lockedUntil) {
    int created =
        db.update(
            "create a lock",
            "INSERT INTO locks (lock_id, fence, owner, locked_until, version) VALUES (?, 1, ?, ?, 1)"
                + " ON CONFLICT (lock_id) DO NOTHING",
            lockId,
            owner,
            lockedUntil);
    return created == 1
        ? Optional.of(new Lease(lockId, owner, 1, lockedUntil, 1L))
        : Optional.empty();
  }

  @Override
  public Optional<Lease> takeOver(LockState seen, String owner, Instant lockedUntil) {
    long fence = seen.fencingToken() + 1;
    long version = (Long) seen.version();
    int taken =
        db.update(
            "take over a lock",
            "UPDATE locks SET fence = ?, owner = ?, locked_until = ?, version = version + 1"
                + " WHERE lock_id = ? AND version = ?",
            fence,
            owner,
            lockedUntil,
            seen.lockId(),
            version);
    return taken == 1
        ? Optional.of(new Lease(seen.lockId(), owner, fence, lockedUntil, version + 1))
        : Optional.empty();
  }

  @Override
  public Optional<Lease> renew(Lease held, Instant lockedUntil) {
    long version = (Long) held.version();
    int renewed =
        db.update(
            "renew a lock",
            "UPDATE locks SET locked_until = ?, version = version + 1"
                + " WHERE lock_id = ? AND version = ?",
            lockedUntil,
            held.lockId(),
            version);
    return renewed == 1
        ? Optional.of(
            new Lease(held.lockId(), held.owner(), held.fencingToken(), lockedUntil, version + 1))
        : Optional.empty();
  }

  @Override
  public boolean release(Lease held, Instant now) {
    return db.update(
            "release a lock",
            "UPDATE locks SET owner = NULL, locked_until = ?, version = version + 1"
                + " WHERE lock_id = ? AND version = ?",
            now,
            held.lockId(),
            (Long) held.version())
        == 1;
  }
}
