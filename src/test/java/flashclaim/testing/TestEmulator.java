package flashclaim.testing;

import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.FirestoreOptions;
import flashclaim.store.firestore.FirestoreEmulator;
import java.time.Duration;
import java.util.Optional;

/**
 * The one Firestore emulator of a test run: started on a free port on first use, located the way
 * the service locates it, stopped when the test JVM exits. Tests reset it with {@link #reset()};
 * one that filled it with many documents replaces it ({@link #replace()}).
 */
public final class TestEmulator {
  public static final String PROJECT = "demo-flashclaim-test";
  /** System property with the emulator's maximum heap (default 512m); big benchmark pools need more. */
  public static final String HEAP_PROPERTY = "flashclaim.test.emulator-heap";
  private static FirestoreEmulator emulator;
  private static Firestore client;
  private static boolean stopsOnExit;

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
      if (!stopsOnExit) {
        Runtime.getRuntime().addShutdownHook(new Thread(TestEmulator::replace));
        stopsOnExit = true;
      }
    }
    return emulator.host();
  }

  /**
   * Stops the emulator; the next use starts a fresh one. A test that wrote many documents calls it
   * when done: the emulator keeps what a reset deleted (its heap stays as full as before), and
   * every later query over all documents ({@link StoreContents#snapshot}) walks it: 5x slower after
   * 100,000 codes, which made a test of 500 such queries take 8 minutes instead of 40 s.
   */
  public static synchronized void replace() {
    if (client != null) {
      client.shutdownNow();
      client = null;
    }
    if (emulator != null) {
      emulator.close();
      emulator = null;
    }
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
