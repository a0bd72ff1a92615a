package flashclaim.store.postgres;

import flashclaim.audit.AuditConfig;
import flashclaim.audit.AuditStore;
import flashclaim.campaign.CampaignId;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Requires;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Function;

/**
 * The audit's read on PostgreSQL: one read-only {@code REPEATABLE READ} transaction, so both
 * sequences come from one snapshot, each read through its own cursor {@code fetch-size} rows at a
 * time. Ids sort in byte order ({@code COLLATE "C"}), the order of {@link String#compareTo} for the
 * ASCII codes. The claim records have no index by code, so the database sorts them itself (on disk
 * past {@code work_mem}), not the service.
 */
@Context // created at startup, so that a bad flashclaim.audit configuration refuses to start
@Requires(bean = PostgresCalls.class)
final class PostgresAuditStore implements AuditStore {
  private final PostgresCalls db;
  private final AuditConfig audit;

  PostgresAuditStore(PostgresCalls db, AuditConfig audit) {
    this.db = db;
    this.audit = audit;
  }

  @Override
  public <T> T read(CampaignId campaign, Function<View, T> reader) {
    return db.inTransaction(
        "read the campaign for the audit",
        connection -> {
          connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
          connection.setReadOnly(true);
          try (PreparedStatement timeout =
              connection.prepareStatement("SELECT set_config('statement_timeout', ?, true)")) {
            timeout.setString(1, Long.toString(audit.statementTimeout().toMillis()));
            timeout.execute(); // for this transaction only: the streamed queries may take long
          }
          Instant readAt;
          try (PreparedStatement now = connection.prepareStatement("SELECT now()");
              ResultSet row = now.executeQuery()) {
            row.next();
            readAt = PostgresCalls.instant(row, "now");
          }
          PostgresView view = new PostgresView(connection, campaign, readAt);
          try {
            return reader.apply(view);
          } finally {
            view.close();
          }
        });
  }

  /** A row handler that may throw what JDBC throws. */
  @FunctionalInterface
  private interface RowReader<R> {
    R read(ResultSet row) throws SQLException;
  }

  private final class PostgresView implements View {
    private final Connection connection;
    private final CampaignId campaign;
    private final Instant readAt;
    private final List<Cursor<?>> cursors = new ArrayList<>();

    PostgresView(Connection connection, CampaignId campaign, Instant readAt) {
      this.connection = connection;
      this.campaign = campaign;
      this.readAt = readAt;
    }

    @Override
    public Instant readAt() {
      return readAt;
    }

    @Override
    public Iterator<CouponRow> coupons() {
      // One hash join rather than a lookup per coupon (through a cursor, 1.2 s for 1,000,000
      // coupons on the machine of docs/benchmarks.md, against 3.5 s). DISTINCT ON passes a coupon
      // with two pool rows once; on rows already sorted by code it costs next to nothing.
      return open(
          "SELECT DISTINCT ON (k.code COLLATE \"C\") k.code, k.assigned_to, k.claim_slot,"
              + " p.code IS NOT NULL AS offered"
              + " FROM coupons k LEFT JOIN coupon_pool p"
              + " ON p.campaign_id = k.campaign_id AND p.code = k.code"
              + " WHERE k.campaign_id = ? ORDER BY k.code COLLATE \"C\"",
          row -> {
            String code = row.getString("code");
            String holder = row.getString("assigned_to");
            return new CouponRow(
                code,
                code,
                holder != null,
                holder,
                holder == null ? null : PostgresLayout.claimId(holder, row.getInt("claim_slot")),
                row.getBoolean("offered"));
          });
    }

    @Override
    public Iterator<ClaimRow> claimsByCoupon() {
      return open(
          "SELECT user_key, slot, code FROM claims WHERE campaign_id = ?"
              + " ORDER BY code COLLATE \"C\", user_key, slot",
          row -> {
            String user = row.getString("user_key");
            int slot = row.getInt("slot");
            String code = row.getString("code");
            return new ClaimRow(PostgresLayout.claimId(user, slot), user, slot, code, code);
          });
    }

    @Override
    public long pages() {
      return cursors.stream().mapToLong(c -> c.fetches).sum();
    }

    private <R> Iterator<R> open(String sql, RowReader<R> reader) {
      try {
        PreparedStatement select = PostgresCalls.prepare(connection, sql, campaign.value());
        select.setFetchSize(audit.fetchSize());
        Cursor<R> cursor = new Cursor<>(select, reader);
        cursors.add(cursor);
        return cursor;
      } catch (SQLException e) {
        throw PostgresCalls.failed("read the campaign for the audit", e);
      }
    }

    void close() {
      for (Cursor<?> cursor : cursors) {
        try {
          cursor.select.close();
        } catch (SQLException e) {
          // the transaction ends next, and with it the cursor
        }
      }
    }
  }

  /** Rows of one statement, fetched {@code fetch-size} at a time; counts its fetches. */
  private final class Cursor<R> implements Iterator<R> {
    private final PreparedStatement select;
    private final RowReader<R> reader;
    private ResultSet rows;
    private R next;
    private long read;
    private long fetches;
    private boolean done;

    Cursor(PreparedStatement select, RowReader<R> reader) {
      this.select = select;
      this.reader = reader;
    }

    @Override
    public boolean hasNext() {
      if (next != null || done) {
        return next != null;
      }
      try {
        if (rows == null) {
          rows = select.executeQuery();
        }
        if (read % audit.fetchSize() == 0) {
          fetches++; // the driver fetches the next rows now
        }
        if (rows.next()) {
          read++;
          next = reader.read(rows);
        } else {
          done = true;
        }
      } catch (SQLException e) {
        throw PostgresCalls.failed("read the campaign for the audit", e);
      }
      return next != null;
    }

    @Override
    public R next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      R taken = next;
      next = null;
      return taken;
    }
  }
}
