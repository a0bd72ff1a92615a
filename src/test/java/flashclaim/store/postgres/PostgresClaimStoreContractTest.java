package flashclaim.store.postgres;

import flashclaim.claim.ClaimStoreContract;
import flashclaim.testing.StoreClients;

/** {@link ClaimStoreContract} on PostgreSQL. */
class PostgresClaimStoreContractTest extends ClaimStoreContract {
  @Override
  protected StoreClients openClients(int n) {
    return PostgresClients.fresh("claim_store", n);
  }
}
