package flashclaim.startup;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.Api;
import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.Tokens;
import java.net.ServerSocket;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The start-up warm-up on the Firestore emulator, and on an emulator that does not answer. */
class FirestoreStartupWarmUpTest extends StartupWarmUpContract {
  private final StoreBackend backend = new FirestoreBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }

  /**
   * A store that does not answer: the warm-up gives up at its bound and says UP, and readiness
   * stays DOWN on the store's own indicator; liveness is UP.
   */
  @Test
  void aStoreThatDoesNotAnswerKeepsReadinessDownPastTheWarmUpsBound() throws Exception {
    int deadPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      deadPort = socket.getLocalPort();
    }
    try (ServiceInstance service =
        start(
            Map.of(
                "flashclaim.warm-up.enabled", "true",
                "flashclaim.warm-up.max-time", "2s",
                "flashclaim.firestore.emulator-host", "127.0.0.1:" + deadPort,
                "flashclaim.firestore.call-timeout", "500ms"))) {
      Thread.sleep(4_000);
      Api.Response ready = Api.get(service.url(), "/health/readiness", Tokens.admin());
      assertThat(ready.status()).as(ready.body()).isEqualTo(503);
      Map<String, Object> details = details(ready);
      assertThat(component(details, "warm-up")).containsEntry("status", "UP");
      assertThat(component(details, "firestore")).containsEntry("status", "DOWN");
      assertThat(Api.get(service.url(), "/health/liveness", null).status()).isEqualTo(200);
    }
  }
}
