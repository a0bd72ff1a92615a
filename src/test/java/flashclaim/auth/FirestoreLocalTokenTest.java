package flashclaim.auth;

import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.StoreBackend;

/** Forged local tokens against instances on the Firestore emulator. */
class FirestoreLocalTokenTest extends LocalTokenContract {
  private final StoreBackend backend = new FirestoreBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }
}
