package flashclaim.http;

import flashclaim.testing.PostgresBackend;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.TestPostgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** Generated requests on every route, on PostgreSQL. */
class PostgresFuzzTest extends FuzzContract {
  @Override
  protected StoreBackend backend() {
    return new PostgresBackend();
  }

  @Override
  protected Snapshots snapshots() {
    return new EveryRow();
  }

  /**
   * Every row of every table of the service's schema (those a migration adds later too), keyed by
   * its table and contents, with its {@code xmin}: an insert, update or delete anywhere changes the
   * map. The admission's fleet board is left out, as in {@link PostgresBackend#snapshot()}: the
   * instance writes it on a timer, whatever requests come. One connection for the whole run: a
   * connection per read costs more than the read.
   */
  private static final class EveryRow implements Snapshots {
    private Connection connection;
    private PreparedStatement select;

    @Override
    public Map<String, String> snapshot() {
      Map<String, String> rows = new TreeMap<>();
      try {
        if (select == null) {
          connection = TestPostgres.connect();
          select = connection.prepareStatement(everyRow(connection));
        }
        try (ResultSet row = select.executeQuery()) {
          while (row.next()) {
            rows.put(row.getString(1), row.getString(2));
          }
        }
      } catch (SQLException e) {
        throw new IllegalStateException("reading the test PostgreSQL", e);
      }
      return rows;
    }

    /** One query over every table the migrations made (not their own history, nor the board). */
    private static String everyRow(Connection connection) throws SQLException {
      List<String> tables = new ArrayList<>();
      try (PreparedStatement list =
              connection.prepareStatement(
                  "SELECT table_name FROM information_schema.tables"
                      + " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
                      + " AND table_name NOT IN ('flyway_schema_history', 'admission_fleet')"
                      + " ORDER BY table_name");
          ResultSet table = list.executeQuery()) {
        while (table.next()) {
          tables.add(table.getString(1));
        }
      }
      if (tables.isEmpty()) {
        throw new IllegalStateException("no tables: the instance has not migrated the database");
      }
      return tables.stream()
          .map(t -> "SELECT '" + t + "/' || r::text, r.xmin::text FROM " + t + " r")
          .collect(Collectors.joining(" UNION ALL "));
    }

    @Override
    public void close() {
      try {
        if (connection != null) {
          connection.close();
        }
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    }
  }
}
