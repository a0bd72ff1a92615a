package flashclaim.claim;

import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.StoreBackend;

/** {@link ClosedCampaignHoldersContract} on Firestore (the emulator). */
class FirestoreClosedCampaignHoldersTest extends ClosedCampaignHoldersContract {
  private final StoreBackend backend = new FirestoreBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }
}
