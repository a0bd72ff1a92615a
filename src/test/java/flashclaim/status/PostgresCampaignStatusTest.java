package flashclaim.status;

import flashclaim.testing.PostgresBackend;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreBackend;
import java.util.OptionalLong;

/** The campaign status on PostgreSQL (embedded); stock reads are counted by the service only. */
class PostgresCampaignStatusTest extends CampaignStatusContract {
  private final StoreBackend backend = new PostgresBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }

  @Override
  protected OptionalLong storeStockReads(ServiceInstance instance, String campaign) {
    return OptionalLong.empty();
  }
}
