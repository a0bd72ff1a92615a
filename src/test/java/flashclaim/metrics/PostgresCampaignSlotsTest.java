package flashclaim.metrics;

import flashclaim.testing.PostgresBackend;
import flashclaim.testing.StoreBackend;

/** Made-up campaign ids take no per-campaign place, on PostgreSQL. */
class PostgresCampaignSlotsTest extends CampaignSlotsContract {
  private final StoreBackend backend = new PostgresBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }
}
