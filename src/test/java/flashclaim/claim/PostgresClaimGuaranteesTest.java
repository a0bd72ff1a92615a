package flashclaim.claim;

import flashclaim.testing.PostgresBackend;
import flashclaim.testing.StoreBackend;

/** G1-G5 on PostgreSQL (embedded, started by the test). */
class PostgresClaimGuaranteesTest extends ClaimGuaranteesContract {
  private final StoreBackend backend = new PostgresBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }
}
