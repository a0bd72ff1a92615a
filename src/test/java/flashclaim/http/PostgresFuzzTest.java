package flashclaim.http;

import flashclaim.testing.PostgresBackend;
import flashclaim.testing.StoreBackend;

/** Generated requests on every route, on PostgreSQL. */
class PostgresFuzzTest extends FuzzContract {
  @Override
  protected StoreBackend backend() {
    return new PostgresBackend();
  }
}
