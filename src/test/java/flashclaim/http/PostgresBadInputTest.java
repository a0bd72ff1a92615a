package flashclaim.http;

import flashclaim.testing.PostgresBackend;
import flashclaim.testing.StoreBackend;

/** Bad input on every route, on PostgreSQL: 4xx problem+json, and not one row written. */
class PostgresBadInputTest extends BadInputTest {
  private final StoreBackend backend = new PostgresBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }
}
