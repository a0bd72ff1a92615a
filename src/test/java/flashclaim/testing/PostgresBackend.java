package flashclaim.testing;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The test run's embedded PostgreSQL as a {@link StoreBackend}, read with plain JDBC. */
public final class PostgresBackend implements StoreBackend {

  @Override
  public Map<String, Object> properties() {
    return Map.of(
        "flashclaim.store", "postgres",
        "flashclaim.postgres.url", TestPostgres.url(),
        "flashclaim.postgres.pool-size", "12");
  }

  @Override
  public void reset() {
    TestPostgres.reset();
  }

  /** A coupon's holder is its claim's id ({@link #claimId}), as a claim's is. */
  @Override
  public List<StoredCoupon> coupons(String campaign) {
    return query(
        "SELECT code, assigned_to, claim_slot, assigned_at FROM coupons WHERE campaign_id = ?",
        row -> {
          String user = row.getString("assigned_to");
          return new StoredCoupon(
              row.getString("code"),
              row.getString("code"),
              user != null,
              user == null ? null : claimId(user, row.getInt("claim_slot")),
              instant(row, "assigned_at"));
        },
        campaign);
  }

  @Override
  public List<StoredClaim> claims(String campaign) {
    return query(
        "SELECT user_key, slot, code FROM claims WHERE campaign_id = ?",
        row -> {
          String id = claimId(row.getString("user_key"), row.getInt("slot"));
          return new StoredClaim(id, id, row.getString("code"), row.getString("code"));
        },
        campaign);
  }

  @Override
  public StoredRedemption redemption(String campaign, String code) {
    List<StoredRedemption> found =
        query(
            "SELECT redemption_state, order_id, redeemed_at, cancelled_at FROM coupons"
                + " WHERE campaign_id = ? AND code = ?",
            row ->
                new StoredRedemption(
                    row.getString("redemption_state"),
                    row.getString("order_id"),
                    instant(row, "redeemed_at"),
                    instant(row, "cancelled_at")),
            campaign,
            code);
    if (found.isEmpty()) {
      throw new AssertionError("no coupon " + code + " in " + campaign);
    }
    return found.get(0);
  }

  /**
   * Every row of every table by key, with its {@code xmin}: any write changes it. The admission's
   * fleet board is left out: instances write it on a timer, whatever requests come.
   */
  @Override
  public Map<String, String> snapshot() {
    Map<String, String> rows = new TreeMap<>();
    String sql =
        "SELECT 'campaigns/' || id, xmin::text FROM campaigns"
            + " UNION ALL SELECT 'coupons/' || campaign_id || '/' || code, xmin::text FROM coupons"
            + " UNION ALL SELECT 'claims/' || campaign_id || '/' || user_key || '/' || slot,"
            + " xmin::text FROM claims"
            + " UNION ALL SELECT 'locks/' || lock_id, xmin::text FROM locks"
            + " UNION ALL SELECT 'guards/' || lock_id, xmin::text FROM guards"
            + " UNION ALL SELECT 'idempotency/' || record_id, xmin::text FROM idempotency"
            + " UNION ALL SELECT 'campaign_changes/' || campaign_id || '/' || version, xmin::text"
            + " FROM campaign_changes";
    try (Connection connection = TestPostgres.connect();
        PreparedStatement select = connection.prepareStatement(sql);
        ResultSet row = select.executeQuery()) {
      while (row.next()) {
        rows.put(row.getString(1), row.getString(2));
      }
    } catch (SQLException e) {
      throw new IllegalStateException("reading the test PostgreSQL", e);
    }
    return rows;
  }

  @Override
  public List<StoredGuard> guards() {
    return query(
        "SELECT lock_id, expires_at FROM guards",
        row -> new StoredGuard(row.getString("lock_id"), instant(row, "expires_at")));
  }

  @Override
  public List<StoredIdempotencyRecord> idempotencyRecords() {
    return query(
        "SELECT record_id, status, expires_at, body_stored FROM idempotency",
        row ->
            new StoredIdempotencyRecord(
                row.getString("record_id"),
                row.getObject("status") != null,
                instant(row, "expires_at"),
                row.getBoolean("body_stored")));
  }

  /**
   * Closes the instance's pool, which aborts its open connections at once: PostgreSQL rolls back
   * their transactions, as when a process dies.
   */
  @Override
  public void cutOff(ServiceInstance instance) {
    instance.context().getBean(HikariDataSource.class).close();
  }

  /**
   * A pool that {@link #cutOff} closed has no connection to hand out: a call waits the whole
   * connection timeout, here the shortest HikariCP accepts, before it fails.
   */
  @Override
  public Map<String, Object> cutOffProperties() {
    return Map.of("flashclaim.postgres.connection-timeout", "250ms");
  }

  /** Reads a row of a query result. */
  @FunctionalInterface
  private interface RowReader<T> {
    T read(ResultSet row) throws SQLException;
  }

  /**
   * A claim's id as both backends report it, the form of the Firestore layout's claim record: the
   * user's key for the first slot, {@code userKey-slot} after it.
   */
  private static String claimId(String userKey, int slot) {
    return slot == 0 ? userKey : userKey + "-" + slot;
  }

  private static <T> List<T> query(String sql, RowReader<T> reader, String... parameters) {
    try (Connection connection = TestPostgres.connect();
        PreparedStatement select = connection.prepareStatement(sql)) {
      for (int i = 0; i < parameters.length; i++) {
        select.setString(i + 1, parameters[i]);
      }
      List<T> rows = new ArrayList<>();
      try (ResultSet row = select.executeQuery()) {
        while (row.next()) {
          rows.add(reader.read(row));
        }
      }
      return rows;
    } catch (SQLException e) {
      throw new IllegalStateException("reading the test PostgreSQL", e);
    }
  }

  private static Instant instant(ResultSet row, String column) throws SQLException {
    OffsetDateTime t = row.getObject(column, OffsetDateTime.class);
    return t == null ? null : t.toInstant();
  }
}
