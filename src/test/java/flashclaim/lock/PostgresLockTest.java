package flashclaim.lock;

import flashclaim.testing.PostgresBackend;
import flashclaim.testing.StoreBackend;

/** The per-key lock on PostgreSQL (embedded, started by the test). */
class PostgresLockTest extends LockContract {
  private final StoreBackend backend = new PostgresBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }
}
