package flashclaim.testing;

import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.FirestoreOptions;
import flashclaim.store.firestore.FirestoreEmulator;
import java.time.Duration;
import java.util.Optional;

/**
 * The one Firestore emulator of a test run: started on a free port on first use, located the way
 * the service locates it, stopped when the test JVM exits. Tests reset it with {@link #reset()}.
 */
public final class TestEmulator {
  public static final String PROJECT = "demo-flashclaim-test";
  /** System property with the emulator's maximum heap (default 512m); big benchmark pools need more. */
  public static final String HEAP_PROPERTY = "flashclaim.test.emulator-heap";
  private static FirestoreEmulator emulator;
  private static Firestore client;

  private TestEmulator() {}

  /** {@code host:port} of the running emulator. */
  public static synchronized String host() {
    if (emulator == null) {
      emulator =
          FirestoreEmulator.start(
              FirestoreEmulator.locateJar(Optional.ofNullable(System.getenv(FirestoreEmulator.JAR_ENV))),
              0,
              System.getProperty(HEAP_PROPERTY, "512m"),
              Duration.ofSeconds(60));
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    if (client != null) {
                      client.shutdownNow();
                    }
                    emulator.close();
                  }));
    }
    return emulator.host();
  }

  /** Deletes every document. */
  public static void reset() {
    host();
    emulator.reset(PROJECT);
  }

  /**
   * Stops the emulator's process (SIGSTOP) until the returned pause is closed: a store that stops
   * answering, with every call in flight left waiting.
   */
  public static Paused pause() {
    host();
    return Paused.process(emulator.pid());
  }

  /** A Firestore client of the test itself, to read what the service wrote. */
  public static synchronized Firestore firestore() {
    if (client == null) {
      client =
          FirestoreOptions.newBuilder()
              .setProjectId(PROJECT)
              .setEmulatorHost(host())
              .build()
              .getService();
    }
    return client;
  }
}
