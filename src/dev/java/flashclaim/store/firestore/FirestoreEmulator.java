package flashclaim.store.firestore;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Google Cloud Firestore emulator run as a child process: the service's embedded default, and the
 * store of every test. It runs the emulator's jar with this JVM's own {@code java} directly rather
 * than gcloud's launcher script, because killing that script leaves its java process behind.
 */
public final class FirestoreEmulator implements EmbeddedEmulator, AutoCloseable {
  /** Overrides where the emulator jar is looked for. */
  public static final String JAR_ENV = "FIRESTORE_EMULATOR_JAR";

  static final String JAR_IN_SDK = "platform/cloud-firestore-emulator/cloud-firestore-emulator.jar";
  private static final String MAIN_CLASS =
      "com.google.cloud.datastore.emulator.firestore.CloudFirestore";
  private static final Logger LOG = LoggerFactory.getLogger(FirestoreEmulator.class);

  private final Process process;
  private final String host;
  private final Path logFile;

  private FirestoreEmulator(Process process, String host, Path logFile) {
    this.process = process;
    this.host = host;
    this.logFile = logFile;
  }

  /**
   * Starts an emulator and waits until it answers.
   *
   * @param jar the emulator jar, see {@link #locateJar}
   * @param port the port, or 0 for a free one
   * @param heap the emulator's maximum heap, as for {@code -Xmx}
   * @param startTimeout how long to wait for it to answer
   */
  public static FirestoreEmulator start(Path jar, int port, String heap, Duration startTimeout) {
    if (port != 0) {
      return startOn(jar, port, heap, startTimeout);
    }
    // A free port may be taken by another process between the check and the emulator's bind (the
    // emulator cannot bind port 0 and say which it got): then it exits, and another port is tried.
    for (int attempt = 1; ; attempt++) {
      try {
        return startOn(jar, freePort(), heap, startTimeout);
      } catch (EmulatorExited e) {
        if (attempt == PORT_ATTEMPTS) {
          throw e;
        }
        LOG.warn("{}; trying another port", e.getMessage());
      }
    }
  }

  private static final int PORT_ATTEMPTS = 3;

  /** The emulator's process ended before it answered. */
  private static final class EmulatorExited extends IllegalStateException {
    EmulatorExited(String message) {
      super(message);
    }
  }

  private static FirestoreEmulator startOn(Path jar, int actualPort, String heap, Duration startTimeout) {
    String host = "127.0.0.1:" + actualPort;
    try {
      Path log = Files.createTempFile("firestore-emulator-" + actualPort + "-", ".log");
      Process process =
          new ProcessBuilder(
                  javaExecutable(),
                  "-Xmx" + heap,
                  "-cp",
                  jar.toString(),
                  MAIN_CLASS,
                  "--host=127.0.0.1",
                  "--port=" + actualPort)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      FirestoreEmulator emulator = new FirestoreEmulator(process, host, log);
      try {
        emulator.awaitReady(startTimeout);
      } catch (RuntimeException e) {
        emulator.close();
        throw e;
      }
      LOG.info("Firestore emulator started at {} (log: {})", host, log);
      return emulator;
    } catch (IOException e) {
      throw new IllegalStateException("could not start the Firestore emulator from " + jar, e);
    }
  }

  /**
   * Finds the emulator jar: {@code configured} if given (from {@code
   * flashclaim.firestore.emulator-jar} or {@code FIRESTORE_EMULATOR_JAR}), else gcloud's component
   * under the SDK root that {@code gcloud info} reports, else the SDK's usual install places.
   *
   * @throws IllegalStateException with installation instructions when there is none
   */
  public static Path locateJar(Optional<String> configured) {
    if (configured.isPresent() && !configured.get().isBlank()) {
      Path jar = Path.of(configured.get());
      if (Files.isRegularFile(jar)) {
        return jar;
      }
      throw new IllegalStateException(
          "The Firestore emulator jar configured as " + jar + " does not exist. " + HOW_TO_INSTALL);
    }
    List<Path> roots = new ArrayList<>();
    gcloudSdkRoot().ifPresent(roots::add);
    roots.add(Path.of("/usr/lib/google-cloud-sdk"));
    roots.add(Path.of("/usr/share/google-cloud-sdk"));
    roots.add(Path.of("/opt/google-cloud-sdk"));
    roots.add(Path.of(System.getProperty("user.home"), "google-cloud-sdk"));
    for (Path root : roots) {
      Path jar = root.resolve(JAR_IN_SDK);
      if (Files.isRegularFile(jar)) {
        return jar;
      }
    }
    throw new IllegalStateException("The Firestore emulator is not installed. " + HOW_TO_INSTALL);
  }

  static final String HOW_TO_INSTALL =
      "Install it with 'sudo apt-get install google-cloud-cli-firestore-emulator' (Debian/Ubuntu"
          + " with Google's Cloud SDK apt repository) or 'gcloud components install"
          + " cloud-firestore-emulator', or set "
          + JAR_ENV
          + " to the path of cloud-firestore-emulator.jar, or set FIRESTORE_EMULATOR_HOST to an"
          + " emulator that is already running. It also needs Java 17 or newer.";

  /** The process id of the emulator's JVM. */
  public long pid() {
    return process.pid();
  }

  /** {@code host:port} to give the Firestore client (the value of FIRESTORE_EMULATOR_HOST). */
  @Override
  public String host() {
    return host;
  }

  /** Where the emulator's own output goes. */
  public Path logFile() {
    return logFile;
  }

  /** Deletes every document of the project's default database, by the emulator's REST call. */
  public void reset(String projectId) {
    request(
        "DELETE",
        "/emulator/v1/projects/" + projectId + "/databases/(default)/documents",
        Duration.ofSeconds(30));
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private void awaitReady(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new EmulatorExited(
            "the Firestore emulator exited with code " + process.exitValue() + "; see " + logFile);
      }
      try {
        if ("Ok".equals(request("GET", "/", Duration.ofSeconds(1)).trim())) {
          return;
        }
      } catch (IllegalStateException notYet) {
        // not listening yet
      }
      sleep(Duration.ofMillis(100));
    }
    throw new IllegalStateException(
        "the Firestore emulator did not answer within " + timeout + "; see " + logFile);
  }

  private String request(String method, String path, Duration timeout) {
    try {
      HttpURLConnection connection =
          (HttpURLConnection) URI.create("http://" + host + path).toURL().openConnection();
      connection.setRequestMethod(method);
      connection.setConnectTimeout((int) timeout.toMillis());
      connection.setReadTimeout((int) timeout.toMillis());
      int status = connection.getResponseCode();
      try (InputStream body = status < 400 ? connection.getInputStream() : connection.getErrorStream()) {
        String text = body == null ? "" : new String(body.readAllBytes(), StandardCharsets.UTF_8);
        if (status >= 300) {
          throw new IllegalStateException(method + " " + path + " answered " + status + ": " + text);
        }
        return text;
      }
    } catch (IOException e) {
      throw new IllegalStateException(method + " " + path + " failed: " + e.getMessage(), e);
    }
  }

  private static Optional<Path> gcloudSdkRoot() {
    try {
      Process gcloud =
          new ProcessBuilder("gcloud", "info", "--format=value(installation.sdk_root)")
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      String out = new String(gcloud.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      if (!gcloud.waitFor(30, TimeUnit.SECONDS)) {
        gcloud.destroyForcibly();
        return Optional.empty();
      }
      return gcloud.exitValue() == 0 && !out.isEmpty() ? Optional.of(Path.of(out)) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty(); // no gcloud on the PATH
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  private static String javaExecutable() {
    return ProcessHandle.current()
        .info()
        .command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("no free port", e);
    }
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the emulator", e);
    }
  }
}
