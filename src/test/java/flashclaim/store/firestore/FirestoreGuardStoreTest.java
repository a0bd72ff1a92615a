package flashclaim.store.firestore;

import flashclaim.guard.GuardStoreContract;
import flashclaim.testing.StoreClients;

/** {@link GuardStoreContract} on the Firestore emulator. */
class FirestoreGuardStoreTest extends GuardStoreContract {
  @Override
  protected StoreClients openClients(int n) {
    return new FirestoreClients(n);
  }
}
