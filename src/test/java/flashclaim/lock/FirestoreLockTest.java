package flashclaim.lock;

import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.StoreBackend;

/** The per-key lock on Firestore (the emulator). */
class FirestoreLockTest extends LockContract {
  private final StoreBackend backend = new FirestoreBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }
}
