package flashclaim.guard;

import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.StoreBackend;

/** The modification guard on Firestore (the emulator). */
class FirestoreModificationGuardTest extends ModificationGuardContract {
  private final StoreBackend backend = new FirestoreBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }
}
