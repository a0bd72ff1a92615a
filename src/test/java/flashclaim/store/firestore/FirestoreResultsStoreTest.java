package flashclaim.store.firestore;

import flashclaim.results.ResultsStoreContract;
import flashclaim.testing.StoreClients;

/** {@link ResultsStoreContract} on the Firestore emulator. */
class FirestoreResultsStoreTest extends ResultsStoreContract {
  @Override
  protected StoreClients openClients(int n) {
    return new FirestoreClients(n);
  }
}
