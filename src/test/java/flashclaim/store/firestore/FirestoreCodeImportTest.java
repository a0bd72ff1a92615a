package flashclaim.store.firestore;

import flashclaim.campaign.CodeImportContract;
import flashclaim.testing.StoreClients;

/** {@link CodeImportContract} on the Firestore emulator. */
class FirestoreCodeImportTest extends CodeImportContract {
  @Override
  protected StoreClients openClients(int n) {
    return new FirestoreClients(n);
  }
}
