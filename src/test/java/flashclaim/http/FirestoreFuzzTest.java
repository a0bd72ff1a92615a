package flashclaim.http;

import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.StoreBackend;
import net.jqwik.api.PropertyDefaults;

/** Generated requests on every route, on the Firestore emulator. */
@PropertyDefaults(
    tries = 250) // a snapshot of the emulator costs a read per collection and per document
class FirestoreFuzzTest extends FuzzContract {
  @Override
  protected StoreBackend backend() {
    return new FirestoreBackend();
  }
}
