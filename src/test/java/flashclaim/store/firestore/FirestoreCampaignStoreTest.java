package flashclaim.store.firestore;

import flashclaim.campaign.CampaignStoreContract;
import flashclaim.testing.StoreClients;

/** {@link CampaignStoreContract} on the Firestore emulator. */
class FirestoreCampaignStoreTest extends CampaignStoreContract {
  @Override
  protected StoreClients openClients(int n) {
    return new FirestoreClients(n);
  }
}
