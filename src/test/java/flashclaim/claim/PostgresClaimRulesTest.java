package flashclaim.claim;

import flashclaim.store.postgres.EmbeddedPostgresServer;
import flashclaim.testing.PostgresBackend;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreBackend;
import java.time.Duration;
import java.util.Map;

/** The claim rules on PostgreSQL (embedded, started by the test). */
class PostgresClaimRulesTest extends ClaimRulesContract {
  private final StoreBackend backend = new PostgresBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }

  /**
   * An instance on a PostgreSQL of its own that is stopped once the instance runs (the service
   * migrates its schema at startup, so it cannot start without one): its pooled connections break
   * and new ones are refused.
   */
  @Override
  protected ServiceInstance startWithDeadStore() {
    try (EmbeddedPostgresServer doomed = EmbeddedPostgresServer.start(0, Duration.ofSeconds(60))) {
      return ServiceInstance.start(
          Map.of(
              "flashclaim.store", "postgres",
              "flashclaim.postgres.url", doomed.jdbcUrl(),
              "flashclaim.postgres.call-timeout", "500ms",
              "flashclaim.postgres.connection-timeout", "500ms"));
    }
  }
}
