package flashclaim.store.postgres;

import flashclaim.lock.LockStoreContract;
import flashclaim.testing.StoreClients;

/** {@link LockStoreContract} on PostgreSQL. */
class PostgresLockStoreTest extends LockStoreContract {
  @Override
  protected StoreClients openClients(int n) {
    return PostgresClients.fresh("lock_store", n);
  }
}
