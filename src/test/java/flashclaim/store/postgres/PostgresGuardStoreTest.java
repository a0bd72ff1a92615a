package flashclaim.store.postgres;

import flashclaim.guard.GuardStoreContract;
import flashclaim.testing.StoreClients;

/** {@link GuardStoreContract} on PostgreSQL. */
class PostgresGuardStoreTest extends GuardStoreContract {
  @Override
  protected StoreClients openClients(int n) {
    return PostgresClients.fresh("guard_store", n);
  }
}
