package flashclaim.store.postgres;

import flashclaim.redemption.RedemptionStoreContract;
import flashclaim.testing.StoreClients;

/** {@link RedemptionStoreContract} on PostgreSQL. */
class PostgresRedemptionStoreTest extends RedemptionStoreContract {
  @Override
  protected StoreClients openClients(int n) {
    return PostgresClients.fresh("redemption_store", n);
  }
}
