package flashclaim.http;

import flashclaim.testing.PostgresBackend;
import flashclaim.testing.StoreBackend;

/** Values no store holds are invalid input, on PostgreSQL. */
class PostgresStoreLimitsTest extends StoreLimitsContract {
  private final StoreBackend backend = new PostgresBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }
}
