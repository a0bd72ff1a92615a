package flashclaim.claim;

import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreBackend;
import java.net.ServerSocket;
import java.util.Map;

/** The claim rules on Firestore (the emulator). */
class FirestoreClaimRulesTest extends ClaimRulesContract {
  private final StoreBackend backend = new FirestoreBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }

  /** An instance pointed at a port where no emulator listens. */
  @Override
  protected ServiceInstance startWithDeadStore() throws Exception {
    int deadPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      deadPort = socket.getLocalPort();
    }
    return ServiceInstance.start(
        Map.of(
            "flashclaim.firestore.emulator-host", "127.0.0.1:" + deadPort,
            "flashclaim.firestore.call-timeout", "500ms"));
  }
}
