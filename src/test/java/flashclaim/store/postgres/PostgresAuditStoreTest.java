package flashclaim.store.postgres;

import flashclaim.audit.AuditStoreContract;
import flashclaim.testing.StoreClients;

/** {@link AuditStoreContract} on PostgreSQL. */
class PostgresAuditStoreTest extends AuditStoreContract {
  @Override
  protected StoreClients openClients(int n) {
    return PostgresClients.fresh("audit_store", n);
  }
}
