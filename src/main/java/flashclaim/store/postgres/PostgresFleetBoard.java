package flashclaim.store.postgres;

import flashclaim.admission.FleetBoard;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import io.micronaut.core.annotation.Nullable;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The fleet board as rows of {@code admission_fleet} ({@code booked_ms}, {@code held_from_ms}, null
 * when the instance holds nobody back): one row per instance, written by that
 * instance only (an upsert stamped with the database's {@code now()}), at most once per publish
 * interval. A read is one query that computes each row's age as {@code now() - updated_at}, on the
 * database's clock; when it finds stale rows, one delete removes the rows that are still stale.
 */
@Singleton
@Requires(bean = PostgresCalls.class)
final class PostgresFleetBoard implements FleetBoard {
  private final PostgresCalls db;

  PostgresFleetBoard(PostgresCalls db) {
    this.db = db;
  }

  @Override
  public void publish(String instanceId, Duration booked, @Nullable Instant heldFrom) {
    db.update(
        "write this instance's fleet entry",
        "INSERT INTO admission_fleet (instance_id, booked_ms, held_from_ms, updated_at)"
            + " VALUES (?, ?, ?, now())"
            + " ON CONFLICT (instance_id) DO UPDATE"
            + " SET booked_ms = EXCLUDED.booked_ms, held_from_ms = EXCLUDED.held_from_ms,"
            + " updated_at = EXCLUDED.updated_at",
        instanceId,
        booked.toMillis(),
        heldFrom == null ? null : heldFrom.toEpochMilli());
  }

  @Override
  public void withdraw(String instanceId) {
    db.update(
        "delete this instance's fleet entry",
        "DELETE FROM admission_fleet WHERE instance_id = ?",
        instanceId);
  }

  @Override
  public List<Entry> others(String instanceId, Duration staleAfter) {
    long staleMicros = staleAfter.toNanos() / 1000;
    boolean[] sawStale = new boolean[1];
    List<Entry> fresh =
        db.call(
            "read the fleet board",
            connection -> {
              try (PreparedStatement select =
                      PostgresCalls.prepare(
                          connection,
                          "SELECT instance_id, booked_ms, held_from_ms,"
                              + " (extract(epoch FROM now() - updated_at) * 1000000)::bigint"
                              + " AS age_micros"
                              + " FROM admission_fleet WHERE instance_id <> ?",
                          instanceId);
                  ResultSet row = select.executeQuery()) {
                List<Entry> entries = new ArrayList<>();
                while (row.next()) {
                  long ageMicros = Math.max(0, row.getLong("age_micros"));
                  if (ageMicros >= staleMicros) {
                    sawStale[0] = true;
                    continue;
                  }
                  long heldFromMillis = row.getLong("held_from_ms");
                  Instant heldFrom = row.wasNull() ? null : Instant.ofEpochMilli(heldFromMillis);
                  entries.add(
                      new Entry(
                          row.getString("instance_id"),
                          Duration.ofMillis(row.getLong("booked_ms")),
                          heldFrom,
                          Duration.ofNanos(ageMicros * 1000)));
                }
                return entries;
              }
            });
    if (sawStale[0]) {
      db.update(
          "delete stale fleet entries",
          "DELETE FROM admission_fleet"
              + " WHERE now() - updated_at >= make_interval(secs => ?::double precision / 1000000)",
          staleMicros);
    }
    return fresh;
  }
}
