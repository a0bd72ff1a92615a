package flashclaim.store.postgres;

import flashclaim.idempotency.IdempotencyStoreContract;
import flashclaim.testing.StoreClients;

/** {@link IdempotencyStoreContract} on PostgreSQL. */
class PostgresIdempotencyStoreTest extends IdempotencyStoreContract {
  @Override
  protected StoreClients openClients(int n) {
    return PostgresClients.fresh("idempotency_store", n);
  }
}
