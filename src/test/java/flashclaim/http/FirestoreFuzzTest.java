package flashclaim.http;

import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.StoreBackend;

/** Generated requests on every route, on the Firestore emulator. */
class FirestoreFuzzTest extends FuzzContract {
  @Override
  protected StoreBackend backend() {
    return new FirestoreBackend();
  }
}
