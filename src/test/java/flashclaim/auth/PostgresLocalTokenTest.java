package flashclaim.auth;

import flashclaim.testing.PostgresBackend;
import flashclaim.testing.StoreBackend;

/** Forged local tokens against instances on PostgreSQL (embedded, started by the test). */
class PostgresLocalTokenTest extends LocalTokenContract {
  private final StoreBackend backend = new PostgresBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }
}
