package flashclaim.store.firestore;

import flashclaim.campaign.CouponStoreContract;
import flashclaim.testing.StoreClients;

/** {@link CouponStoreContract} on the Firestore emulator. */
class FirestoreCouponStoreTest extends CouponStoreContract {
  @Override
  protected StoreClients openClients(int n) {
    return new FirestoreClients(n);
  }
}
