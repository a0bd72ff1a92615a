package flashclaim.http;

import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.StoreBackend;
import net.jqwik.api.PropertyDefaults;

/** Generated requests on every route, on the Firestore emulator. */
@PropertyDefaults(
    tries = 1000) // a snapshot of the emulator is one collection-group query per collection id
class FirestoreFuzzTest extends FuzzContract {
  @Override
  protected StoreBackend backend() {
    return new FirestoreBackend();
  }
}
