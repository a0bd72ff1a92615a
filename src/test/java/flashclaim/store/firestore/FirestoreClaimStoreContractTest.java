package flashclaim.store.firestore;

import flashclaim.claim.ClaimStoreContract;
import flashclaim.testing.StoreClients;

/** {@link ClaimStoreContract} on the Firestore emulator, with the default claim strategy. */
class FirestoreClaimStoreContractTest extends ClaimStoreContract {
  @Override
  protected StoreClients openClients(int n) {
    return new FirestoreClients(n);
  }
}
