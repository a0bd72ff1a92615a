package flashclaim.store.postgres;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import flashclaim.Deadline;
import flashclaim.StoreException;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.SQLTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.concurrent.Executor;
import javax.sql.DataSource;
import org.postgresql.jdbc.PgStatement;

/**
 * How the PostgreSQL adapters call the database: a pooled connection per call, in autocommit or in
 * one transaction, and every {@link SQLException} wrapped once into a {@link StoreException}.
 * Statements of a claim are bounded by its {@link Deadline} ({@link #prepare(Connection, Deadline,
 * String, Object...)}).
 */
@Singleton
@Requires(property = "flashclaim.store", value = "postgres")
final class PostgresCalls {
  /** SQLSTATE of a lock wait that hit {@code lock_timeout}. */
  static final String LOCK_NOT_AVAILABLE = "55P03";
  /** SQLSTATE of a statement cancelled by {@code statement_timeout}. */
  static final String QUERY_CANCELED = "57014";

  /** pgjdbc ignores the executor of a network timeout; HikariCP resets the timeout on return. */
  private static final Executor UNUSED = Runnable::run;

  private final DataSource dataSource;
  private final PostgresConfig config;
  /** HikariCP's pool behind the data source, to wait with a timeout of our own; null if none. */
  private final HikariPool pool;
  /** The pool's own connection timeout: the longest any call waits for a connection. */
  private final Duration poolTimeout;

  PostgresCalls(@Named("default") DataSource dataSource, PostgresConfig config) throws SQLException {
    this.dataSource = dataSource;
    this.config = config;
    HikariDataSource hikari =
        dataSource.isWrapperFor(HikariDataSource.class) ? dataSource.unwrap(HikariDataSource.class) : null;
    this.pool = hikari == null ? null : (HikariPool) hikari.getHikariPoolMXBean();
    this.poolTimeout =
        hikari == null ? config.connectionTimeout() : Duration.ofMillis(hikari.getConnectionTimeout());
  }

  /** A step on a connection. */
  @FunctionalInterface
  interface Step<T> {
    T run(Connection connection) throws SQLException;
  }

  /** Runs {@code step} on a pooled connection in autocommit mode. */
  <T> T call(String what, Step<T> step) {
    return call(what, Deadline.none(), step);
  }

  /** {@link #call} that leaves SQLExceptions to the caller, which expects some. */
  <T> T connected(Step<T> step) throws SQLException {
    return connected(Deadline.none(), step);
  }

  /** {@link #call} for a step of a claim: the wait for a pooled connection ends by {@code deadline}. */
  <T> T call(String what, Deadline deadline, Step<T> step) {
    try {
      return connected(deadline, step);
    } catch (SQLException e) {
      throw failed(what, e);
    }
  }

  /**
   * Runs {@code step} on a pooled connection in autocommit mode, waiting for the connection no
   * longer than what is left of {@code deadline} (nor than {@code connection-timeout}): when every
   * connection is busy, a claim admitted late answers by its deadline instead of a full connection
   * timeout after it (G6). SQLExceptions are left to the caller.
   *
   * @throws SQLTransientConnectionException when no connection was free in time
   */
  <T> T connected(Deadline deadline, Step<T> step) throws SQLException {
    try (Connection connection = connection(deadline)) {
      return step.run(connection);
    }
  }

  private Connection connection(Deadline deadline) throws SQLException {
    if (pool == null) {
      return dataSource.getConnection(); // not a HikariCP pool: its own timeout applies
    }
    long wait = deadline.timeout(poolTimeout).toMillis();
    if (wait <= 0) {
      throw new SQLTransientConnectionException("the deadline passed before a connection was free");
    }
    return pool.getConnection(wait);
  }

  /**
   * A pooled connection that the caller holds beyond one step and closes itself ({@link
   * PostgresSnapshot}), whose statements may run for {@code statementTimeout}: the driver waits for
   * the database that long plus {@code cancel-grace} instead of the pool's socket timeout (twice
   * the call timeout), which the first rows of a large sorted read can take longer than. The pool's
   * own connection timeout bounds the wait for the connection; the pool resets the network timeout
   * when the connection comes back.
   */
  Connection borrow(Duration statementTimeout) throws SQLException {
    Connection connection = dataSource.getConnection();
    try {
      connection.setNetworkTimeout(
          UNUSED,
          (int)
              Math.min(
                  Integer.MAX_VALUE, statementTimeout.plus(config.cancelGrace()).toMillis()));
    } catch (SQLException | RuntimeException e) {
      connection.close();
      throw e;
    }
    return connection;
  }

  /** Runs {@code step} as one transaction: committed if it returns, rolled back if it throws. */
  <T> T inTransaction(String what, Step<T> step) {
    try {
      return transaction(step);
    } catch (SQLException e) {
      throw failed(what, e);
    }
  }

  /** {@link #inTransaction} that leaves SQLExceptions to the caller, which expects some. */
  <T> T transaction(Step<T> step) throws SQLException {
    try (Connection connection = dataSource.getConnection()) {
      connection.setAutoCommit(false);
      try {
        T result = step.run(connection);
        connection.commit();
        return result;
      } catch (SQLException | RuntimeException e) {
        rollbackQuietly(connection, e);
        throw e;
      }
      // HikariCP resets autocommit when the connection goes back to the pool.
    }
  }

  /** Runs an update with the given parameters and returns its row count. */
  int update(String what, String sql, Object... parameters) {
    return call(
        what,
        connection -> {
          try (PreparedStatement statement = prepare(connection, sql, parameters)) {
            return statement.executeUpdate();
          }
        });
  }

  /**
   * Prepares a statement that must end by {@code deadline}: the driver cancels it once what is left
   * of the deadline (at most the call timeout) has passed, and the connection waits for the
   * database at most {@code cancel-grace} longer before it is taken as lost and closed. So neither
   * a slow statement nor a connection that stopped answering holds the thread much past the
   * deadline (G6).
   *
   * @throws SQLTimeoutException with SQLSTATE {@value #QUERY_CANCELED}, as for a cancelled
   *     statement, when the deadline has passed: the statement does not start
   */
  PreparedStatement prepare(
      Connection connection, Deadline deadline, String sql, Object... parameters)
      throws SQLException {
    Duration timeout = untilDeadline(connection, deadline);
    PreparedStatement statement = prepare(connection, sql, parameters);
    statement.unwrap(PgStatement.class).setQueryTimeoutMs(timeout.toMillis());
    return statement;
  }

  /**
   * {@link #prepare(Connection, Deadline, String, Object...)} for a statement text that sets its
   * own {@code statement_timeout} to what is left of {@code deadline} (rounded as {@link
   * Deadline#timeout}), so the database ends it and the driver need not arm a cancel timer for it
   * (a shared timer that every statement of every connection would contend for). A connection that
   * stops answering is still closed at the deadline plus {@code cancel-grace}.
   */
  PreparedStatement prepareTimedByDatabase(
      Connection connection, Deadline deadline, String sql, Object... parameters)
      throws SQLException {
    untilDeadline(connection, deadline);
    return prepare(connection, sql, parameters);
  }

  /**
   * What is left of the deadline, at most the call timeout; the connection waits for the database
   * at most that plus {@code cancel-grace}.
   */
  private Duration untilDeadline(Connection connection, Deadline deadline) throws SQLException {
    Duration timeout = deadline.timeout(config.callTimeout());
    if (timeout.isZero()) {
      throw new SQLTimeoutException("the deadline passed before the statement", QUERY_CANCELED);
    }
    connection.setNetworkTimeout(
        UNUSED, (int) Math.min(Integer.MAX_VALUE, timeout.plus(config.cancelGrace()).toMillis()));
    return timeout;
  }

  static PreparedStatement prepare(Connection connection, String sql, Object... parameters)
      throws SQLException {
    PreparedStatement statement = connection.prepareStatement(sql);
    for (int i = 0; i < parameters.length; i++) {
      Object value = parameters[i];
      statement.setObject(i + 1, value instanceof Instant instant ? timestamp(instant) : value);
    }
    return statement;
  }

  static StoreException failed(String what, SQLException e) {
    return new StoreException("PostgreSQL could not " + what + ": " + e.getMessage(), e);
  }

  static OffsetDateTime timestamp(Instant instant) {
    return instant == null ? null : OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
  }

  /** A timestamptz column as an Instant; null stays null. */
  static Instant instant(ResultSet row, String column) throws SQLException {
    OffsetDateTime t = row.getObject(column, OffsetDateTime.class);
    return t == null ? null : t.toInstant();
  }

  private static void rollbackQuietly(Connection connection, Exception cause) {
    try {
      connection.rollback();
    } catch (SQLException e) {
      cause.addSuppressed(e);
    }
  }
}
