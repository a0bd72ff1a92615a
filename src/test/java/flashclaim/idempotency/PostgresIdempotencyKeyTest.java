package flashclaim.idempotency;

import flashclaim.testing.PostgresBackend;
import flashclaim.testing.StoreBackend;

/** Idempotency-Key on PostgreSQL (embedded, started by the test). */
class PostgresIdempotencyKeyTest extends IdempotencyKeyContract {
  private final StoreBackend backend = new PostgresBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }
}
