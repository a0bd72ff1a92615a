package flashclaim.audit;

import flashclaim.testing.PostgresBackend;
import flashclaim.testing.StoreBackend;

/** The streamed, consistent audit on PostgreSQL. */
class PostgresAuditTest extends AuditContract {
  private final StoreBackend backend = new PostgresBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }
}
