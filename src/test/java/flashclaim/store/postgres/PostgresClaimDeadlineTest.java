package flashclaim.store.postgres;

import flashclaim.claim.ClaimDeadlineContract;
import flashclaim.claim.UserId;
import flashclaim.testing.PostgresBackend;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.TestPostgres;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

/**
 * The deadline contract on PostgreSQL: a transaction of the test's own connection holds the
 * {@code claims} table in ACCESS EXCLUSIVE mode (as a migration or a bulk job might), so each
 * claim transaction waits for it when it reads the user's claims, until its {@code lock_timeout},
 * again and again until the deadline; the statement timeout is 10 s.
 */
class PostgresClaimDeadlineTest extends ClaimDeadlineContract {
  private final StoreBackend backend = new PostgresBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }

  @Override
  protected Map<String, Object> storeProperties() {
    return Map.of("flashclaim.postgres.call-timeout", CALL_TIMEOUT.toMillis() + "ms");
  }

  @Override
  protected AutoCloseable stall(String campaign, List<UserId> users) throws Exception {
    Connection holder = TestPostgres.connect();
    holder.setAutoCommit(false);
    try (Statement lock = holder.createStatement()) {
      lock.execute("LOCK TABLE claims IN ACCESS EXCLUSIVE MODE");
    }
    return () -> {
      holder.rollback();
      holder.close();
    };
  }
}
