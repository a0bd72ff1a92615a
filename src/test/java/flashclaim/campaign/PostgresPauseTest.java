package flashclaim.campaign;

import flashclaim.testing.PostgresBackend;
import flashclaim.testing.StoreBackend;

/** {@link PauseContract} on PostgreSQL (embedded). */
class PostgresPauseTest extends PauseContract {
  private final StoreBackend backend = new PostgresBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }
}
