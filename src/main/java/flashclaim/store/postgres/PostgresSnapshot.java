package flashclaim.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * One moment of the database for a long streamed read (the audit, the export): a read-only {@code
 * REPEATABLE READ} transaction on a pooled connection of its own, so every statement in it sees
 * the same snapshot, taken at its first statement ({@link #readAt}, the transaction's {@code
 * now()}). Rows come through cursors, {@code fetchSize} rows per round trip, so memory holds one
 * fetch per cursor whatever the size of the read. The transaction's {@code statement_timeout} is
 * the caller's, not {@code flashclaim.postgres.call-timeout}: a streamed statement runs from its
 * start until its last row is read, which for a large campaign may take minutes. Close it to end
 * the transaction and give the connection back; it is not safe for concurrent use.
 */
final class PostgresSnapshot implements AutoCloseable {
  private final Connection connection;
  private final String what;
  private final Instant readAt;
  private final List<Cursor<?>> cursors = new ArrayList<>();

  private PostgresSnapshot(Connection connection, String what, Instant readAt) {
    this.connection = connection;
    this.what = what;
    this.readAt = readAt;
  }

  /**
   * Opens the snapshot.
   *
   * @param what what the read is for, as failures name it ("read the campaign for the audit")
   * @throws flashclaim.StoreException when no connection was free or the database failed
   */
  static PostgresSnapshot open(PostgresCalls db, Duration statementTimeout, String what) {
    Connection connection = null;
    try {
      connection = db.borrow(statementTimeout);
      connection.setAutoCommit(false);
      connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      connection.setReadOnly(true);
      try (PreparedStatement timeout =
          connection.prepareStatement("SELECT set_config('statement_timeout', ?, true)")) {
        timeout.setString(1, Long.toString(statementTimeout.toMillis()));
        timeout.execute(); // for this transaction only
      }
      Instant readAt;
      try (PreparedStatement now = connection.prepareStatement("SELECT now()");
          ResultSet row = now.executeQuery()) {
        row.next();
        readAt = PostgresCalls.instant(row, "now");
      }
      return new PostgresSnapshot(connection, what, readAt);
    } catch (SQLException | RuntimeException e) {
      if (connection != null) {
        end(connection);
      }
      throw e instanceof SQLException sql ? PostgresCalls.failed(what, sql) : (RuntimeException) e;
    }
  }

  /** The moment of the database the snapshot shows. */
  Instant readAt() {
    return readAt;
  }

  /** A row handler that may throw what JDBC throws. */
  @FunctionalInterface
  interface RowReader<R> {
    R read(ResultSet row) throws SQLException;
  }

  /**
   * The rows of {@code sql} in this snapshot, read {@code fetchSize} at a time as the iterator is
   * advanced. A failure while reading is a {@link flashclaim.StoreException}.
   */
  <R> Iterator<R> cursor(String sql, int fetchSize, RowReader<R> reader, Object... parameters) {
    try {
      PreparedStatement select = PostgresCalls.prepare(connection, sql, parameters);
      select.setFetchSize(fetchSize);
      Cursor<R> cursor = new Cursor<>(select, fetchSize, reader);
      cursors.add(cursor);
      return cursor;
    } catch (SQLException e) {
      throw PostgresCalls.failed(what, e);
    }
  }

  /** Round trips the cursors made so far, each of at most a fetch. */
  long fetches() {
    return cursors.stream().mapToLong(c -> c.fetches).sum();
  }

  /** Ends the transaction (nothing was written) and gives the connection back to the pool. */
  @Override
  public void close() {
    for (Cursor<?> cursor : cursors) {
      try {
        cursor.select.close();
      } catch (SQLException e) {
        // the transaction ends next, and with it the cursor
      }
    }
    end(connection);
  }

  private static void end(Connection connection) {
    try {
      connection.rollback();
    } catch (SQLException e) {
      // a broken connection: the pool drops it when it comes back
    }
    try {
      connection.close(); // HikariCP resets autocommit, isolation and read-only
    } catch (SQLException e) {
      // nothing more to give back
    }
  }

  /** Rows of one statement, fetched {@code fetchSize} at a time; counts its fetches. */
  private final class Cursor<R> implements Iterator<R> {
    private final PreparedStatement select;
    private final int fetchSize;
    private final RowReader<R> reader;
    private ResultSet rows;
    private R next;
    private long read;
    private long fetches;
    private boolean done;

    Cursor(PreparedStatement select, int fetchSize, RowReader<R> reader) {
      this.select = select;
      this.fetchSize = fetchSize;
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
        if (read % fetchSize == 0) {
          fetches++; // the driver fetches the next rows now
        }
        if (rows.next()) {
          read++;
          next = reader.read(rows);
        } else {
          done = true;
        }
      } catch (SQLException e) {
        throw PostgresCalls.failed(what, e);
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
