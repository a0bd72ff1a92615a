package flashclaim.campaign;

import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.StoreBackend;

/** {@link PauseContract} on Firestore (the emulator). */
class FirestorePauseTest extends PauseContract {
  private final StoreBackend backend = new FirestoreBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }
}
