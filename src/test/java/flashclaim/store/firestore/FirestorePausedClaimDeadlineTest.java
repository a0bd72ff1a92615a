package flashclaim.store.firestore;

import flashclaim.claim.ClaimDeadlineContract;
import flashclaim.claim.UserId;
import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.TestEmulator;
import java.util.List;
import java.util.Map;

/**
 * The deadline contract on Firestore when the store stops answering: the emulator's process is
 * stopped, so every call of a claim waits, and the call timeout is 10 s. Commits cut short were
 * sent, and may land once the emulator runs again.
 *
 * <p>The modification guard is off here: its store calls come before the claim and are bounded by
 * the call timeout, not by the claim's deadline.
 */
class FirestorePausedClaimDeadlineTest extends ClaimDeadlineContract {
  private final StoreBackend backend = new FirestoreBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }

  @Override
  protected Map<String, Object> storeProperties() {
    return Map.of(
        "flashclaim.firestore.call-timeout", CALL_TIMEOUT.toMillis() + "ms",
        "flashclaim.guard.enabled", false);
  }

  @Override
  protected AutoCloseable stall(String campaign, List<UserId> users) {
    return TestEmulator.pause();
  }

  @Override
  protected boolean cutWritesMayLand() {
    return true;
  }
}
