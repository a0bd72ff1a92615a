package flashclaim.store.firestore;

import flashclaim.redemption.RedemptionStoreContract;
import flashclaim.testing.StoreClients;

/** {@link RedemptionStoreContract} on the Firestore emulator. */
class FirestoreRedemptionStoreTest extends RedemptionStoreContract {
  @Override
  protected StoreClients openClients(int n) {
    return new FirestoreClients(n);
  }
}
