package flashclaim.claim;

import flashclaim.testing.PostgresBackend;
import flashclaim.testing.StoreBackend;

/** {@link ClosedCampaignHoldersContract} on PostgreSQL (embedded). */
class PostgresClosedCampaignHoldersTest extends ClosedCampaignHoldersContract {
  private final StoreBackend backend = new PostgresBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }
}
