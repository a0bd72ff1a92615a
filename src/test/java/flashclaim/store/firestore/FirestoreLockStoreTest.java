package flashclaim.store.firestore;

import flashclaim.lock.LockStoreContract;
import flashclaim.testing.StoreClients;

/** {@link LockStoreContract} on the Firestore emulator. */
class FirestoreLockStoreTest extends LockStoreContract {
  @Override
  protected StoreClients openClients(int n) {
    return new FirestoreClients(n);
  }
}
