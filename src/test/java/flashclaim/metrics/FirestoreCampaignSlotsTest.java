package flashclaim.metrics;

import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.StoreBackend;

/** Made-up campaign ids take no per-campaign place, on the Firestore emulator. */
class FirestoreCampaignSlotsTest extends CampaignSlotsContract {
  private final StoreBackend backend = new FirestoreBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }
}
