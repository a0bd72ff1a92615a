package flashclaim.idempotency;

import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.StoreBackend;

/** Idempotency-Key on Firestore (the emulator). */
class FirestoreIdempotencyKeyTest extends IdempotencyKeyContract {
  private final StoreBackend backend = new FirestoreBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }
}
