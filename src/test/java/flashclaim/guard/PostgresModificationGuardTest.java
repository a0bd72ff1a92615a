package flashclaim.guard;

import flashclaim.testing.PostgresBackend;
import flashclaim.testing.StoreBackend;

/** The modification guard on PostgreSQL (embedded, started by the test). */
class PostgresModificationGuardTest extends ModificationGuardContract {
  private final StoreBackend backend = new PostgresBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }
}
