package flashclaim.startup;

import flashclaim.testing.PostgresBackend;
import flashclaim.testing.StoreBackend;

/** The start-up warm-up on embedded PostgreSQL. */
class PostgresStartupWarmUpTest extends StartupWarmUpContract {
  private final StoreBackend backend = new PostgresBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }
}
