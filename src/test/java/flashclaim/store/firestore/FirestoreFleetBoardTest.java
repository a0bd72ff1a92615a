package flashclaim.store.firestore;

import flashclaim.admission.FleetBoardContract;
import flashclaim.testing.StoreClients;

/** {@link FleetBoardContract} on the Firestore emulator. */
class FirestoreFleetBoardTest extends FleetBoardContract {
  @Override
  protected StoreClients openClients(int n) {
    return new FirestoreClients(n);
  }
}
