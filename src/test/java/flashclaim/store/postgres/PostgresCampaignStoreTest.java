package flashclaim.store.postgres;

import flashclaim.campaign.CampaignStoreContract;
import flashclaim.testing.StoreClients;

/** {@link CampaignStoreContract} on PostgreSQL. */
class PostgresCampaignStoreTest extends CampaignStoreContract {
  @Override
  protected StoreClients openClients(int n) {
    return PostgresClients.fresh("campaign_store", n);
  }
}
