package flashclaim.claim;

import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.StoreBackend;

/** G1-G5 on Firestore (the emulator), default claim strategy. */
class FirestoreClaimGuaranteesTest extends ClaimGuaranteesContract {
  private final StoreBackend backend = new FirestoreBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }
}
