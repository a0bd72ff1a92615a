package flashclaim.store.postgres;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * A PostgreSQL server for several service instances to share (the load runs): zonky's embedded
 * binaries, no installation needed. Prints {@code POSTGRES_URL <jdbc url>} and {@code
 * POSTMASTER_PID <pid>} once it accepts connections, then runs until the process is stopped
 * (SIGTERM or SIGINT), when it stops the server and removes its data directory.
 *
 * <pre>java -cp flashclaim.jar flashclaim.store.postgres.PostgresServerMain [port]</pre>
 */
public final class PostgresServerMain {
  private PostgresServerMain() {}

  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
    EmbeddedPostgresServer server = EmbeddedPostgresServer.start(port, Duration.ofSeconds(120));
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.close();
                  stopped.countDown();
                }));
    System.out.println("POSTGRES_URL " + server.jdbcUrl());
    System.out.println("POSTMASTER_PID " + postmasterPid(server));
    System.out.flush();
    stopped.await();
  }

  /** The server's main process: the parent of any of its backends. */
  private static long postmasterPid(EmbeddedPostgresServer server) throws Exception {
    try (Connection connection =
            DriverManager.getConnection(server.jdbcUrl(), EmbeddedPostgresServer.USER, "");
        Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery("SELECT pg_backend_pid()")) {
      row.next();
      return ProcessHandle.of(row.getLong(1))
          .flatMap(ProcessHandle::parent)
          .map(ProcessHandle::pid)
          .orElse(-1L);
    }
  }
}
