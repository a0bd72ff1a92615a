package flashclaim.store.postgres;

import flashclaim.results.ResultsStoreContract;
import flashclaim.testing.StoreClients;

/** {@link ResultsStoreContract} on PostgreSQL. */
class PostgresResultsStoreTest extends ResultsStoreContract {
  @Override
  protected StoreClients openClients(int n) {
    return PostgresClients.fresh("results_store", n);
  }
}
