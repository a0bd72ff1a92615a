package flashclaim.redemption;

import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.StoreBackend;

/** Redemption webhooks on Firestore (the emulator). */
class FirestoreRedemptionWebhookTest extends RedemptionWebhookContract {
  private final StoreBackend backend = new FirestoreBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }
}
