package flashclaim.store.firestore;

import flashclaim.idempotency.IdempotencyStoreContract;
import flashclaim.testing.StoreClients;

/** {@link IdempotencyStoreContract} on the Firestore emulator. */
class FirestoreIdempotencyStoreTest extends IdempotencyStoreContract {
  @Override
  protected StoreClients openClients(int n) {
    return new FirestoreClients(n);
  }
}
