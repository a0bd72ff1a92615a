package flashclaim.http;

import flashclaim.testing.PostgresBackend;
import flashclaim.testing.StoreBackend;
import net.jqwik.api.PropertyDefaults;

/** Generated requests on every route, on PostgreSQL. */
@PropertyDefaults(tries = 2000) // a snapshot of PostgreSQL is one query
class PostgresFuzzTest extends FuzzContract {
  @Override
  protected StoreBackend backend() {
    return new PostgresBackend();
  }
}
