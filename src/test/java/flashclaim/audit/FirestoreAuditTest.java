package flashclaim.audit;

import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.StoreBackend;

/** The streamed, consistent audit on Firestore (the emulator). */
class FirestoreAuditTest extends AuditContract {
  private final StoreBackend backend = new FirestoreBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }
}
