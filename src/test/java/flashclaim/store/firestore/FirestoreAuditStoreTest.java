package flashclaim.store.firestore;

import flashclaim.audit.AuditStoreContract;
import flashclaim.testing.StoreClients;

/** {@link AuditStoreContract} on the Firestore emulator. */
class FirestoreAuditStoreTest extends AuditStoreContract {
  @Override
  protected StoreClients openClients(int n) {
    return new FirestoreClients(n);
  }
}
