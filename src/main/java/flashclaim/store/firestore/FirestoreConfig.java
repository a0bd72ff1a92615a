package flashclaim.store.firestore;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * Where the Firestore store is and how it is called ({@code flashclaim.firestore.*}).
 *
 * @param projectId the Google Cloud project (env {@code GOOGLE_CLOUD_PROJECT}); a {@code demo-}
 *     project never reaches Google
 * @param emulatorHost {@code host:port} of a running emulator (env {@code FIRESTORE_EMULATOR_HOST})
 * @param embedded {@code auto}: start an emulator as a child process when no emulator host is set
 *     and the project is a {@code demo-} project; {@code true} or {@code false} force it. A
 *     development tool that the container image lacks: there, asking for it stops the service from
 *     starting
 * @param emulatorJar the emulator jar for the embedded emulator (env {@code FIRESTORE_EMULATOR_JAR});
 *     default: found through gcloud
 * @param emulatorPort port of the embedded emulator; 0 picks a free one
 * @param emulatorHeap maximum heap of the embedded emulator
 * @param emulatorStartTimeout how long to wait for the embedded emulator to answer
 * @param callTimeout the most any single Firestore call may take before it counts as a failure; a
 *     call of a claim waits at most what is left of the claim's deadline, if that is less
 */
@ConfigurationProperties("flashclaim.firestore")
public record FirestoreConfig(
    @Bindable(defaultValue = "demo-flashclaim") String projectId,
    @Nullable String emulatorHost,
    @Bindable(defaultValue = "auto") String embedded,
    @Nullable String emulatorJar,
    @Bindable(defaultValue = "0") int emulatorPort,
    @Bindable(defaultValue = "512m") String emulatorHeap,
    @Bindable(defaultValue = "60s") Duration emulatorStartTimeout,
    @Bindable(defaultValue = "5s") Duration callTimeout) {

  /** Whether this configuration asks for an embedded emulator. */
  public boolean wantsEmbeddedEmulator() {
    boolean noHost = emulatorHost == null || emulatorHost.isBlank();
    return switch (embedded) {
      case "true" -> true;
      case "false" -> false;
      case "auto" -> noHost && projectId.startsWith("demo-");
      default ->
          throw new IllegalArgumentException(
              "flashclaim.firestore.embedded must be auto, true or false, not " + embedded);
    };
  }
}
