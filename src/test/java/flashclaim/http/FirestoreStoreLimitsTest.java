package flashclaim.http;

import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.StoreBackend;

/** Values no store holds are invalid input, on the Firestore emulator. */
class FirestoreStoreLimitsTest extends StoreLimitsContract {
  private final StoreBackend backend = new FirestoreBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }
}
