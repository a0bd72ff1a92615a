package flashclaim.testing;

import flashclaim.store.postgres.EmbeddedPostgresServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * The one PostgreSQL of a test run: an embedded server (zonky's binaries) started on a free port on
 * first use, stopped when the test JVM exits. The service instances of the tests share it and
 * create its schema with their migrations; tests reset it with {@link #reset()}.
 */
public final class TestPostgres {
  private static final String TABLES =
      "campaigns, campaign_changes, coupons, coupon_pool, claims, locks, guards, idempotency,"
          + " admission_fleet";
  private static EmbeddedPostgresServer server;

  private TestPostgres() {}

  /** The JDBC URL of the running server. */
  public static synchronized String url() {
    if (server == null) {
      server = EmbeddedPostgresServer.start(0, Duration.ofSeconds(60));
      Runtime.getRuntime().addShutdownHook(new Thread(server::close));
    }
    return server.jdbcUrl();
  }

  /** A connection of the test itself, to read what the service wrote. Close it. */
  public static Connection connect() throws SQLException {
    return DriverManager.getConnection(url(), EmbeddedPostgresServer.USER, "");
  }

  /**
   * A new, empty database of that name on the same server (an earlier one of that name is dropped
   * first), for a test that needs a schema of its own; returns its JDBC URL.
   */
  public static String freshDatabase(String name) {
    url();
    try (Connection connection = connect();
        Statement create = connection.createStatement()) {
      create.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
      create.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("could not create the test database " + name, e);
    }
    return "jdbc:postgresql://localhost:" + server.port() + "/" + name;
  }

  /** Empties every table of the service (the schema must exist: an instance has started). */
  public static void reset() {
    try (Connection connection = connect();
        Statement truncate = connection.createStatement()) {
      truncate.execute("TRUNCATE " + TABLES);
    } catch (SQLException e) {
      throw new IllegalStateException("could not reset the test PostgreSQL", e);
    }
  }
}
