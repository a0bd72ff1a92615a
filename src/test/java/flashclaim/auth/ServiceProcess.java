package flashclaim.auth;

import flashclaim.Application;
import flashclaim.testing.Api;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The service as it is deployed: {@link Application#main} in a JVM of its own, with the environment
 * variables and system properties given and none of the test run's, its output (standard output and
 * error) in a file.
 */
final class ServiceProcess implements AutoCloseable {
  /** Variables of the test run that would configure the service; the child gets none of them. */
  private static final List<String> CONFIGURING_PREFIXES =
      List.of("FLASHCLAIM_", "MICRONAUT_", "FIRESTORE_EMULATOR_HOST", "GOOGLE_", "LOG_");

  private final Process process;
  private final Path output;
  private final int port;
  private final List<ProcessHandle> descendants = new ArrayList<>();

  private ServiceProcess(Process process, Path output, int port) {
    this.process = process;
    this.output = output;
    this.port = port;
  }

  /** Starts the service on a free port with these variables and properties. */
  static ServiceProcess start(Map<String, String> environment, Map<String, String> properties) {
    int port = freePort();
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElseThrow());
    command.add("-Xmx384m");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add("-Dmicronaut.server.port=" + port);
    properties.forEach((name, value) -> command.add("-D" + name + "=" + value));
    command.add(Application.class.getName());
    try {
      Path output = Files.createTempFile("flashclaim-service-", ".log");
      ProcessBuilder builder =
          new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
      builder
          .environment()
          .keySet()
          .removeIf(name -> CONFIGURING_PREFIXES.stream().anyMatch(name::startsWith));
      builder.environment().putAll(environment);
      return new ServiceProcess(builder.start(), output, port);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Waits for the process to exit; its exit code, or empty when it still runs after {@code
   * timeout}.
   */
  Integer awaitExit(Duration timeout) throws InterruptedException {
    rememberDescendants();
    return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : null;
  }

  /**
   * Waits until the service answers its health check with 200; false when the process exited first
   * or {@code timeout} passed.
   */
  boolean awaitHealthy(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline && process.isAlive()) {
      rememberDescendants();
      try {
        if (Api.get(url(), "/health", null).status() == 200) {
          return true;
        }
      } catch (UncheckedIOException notListeningYet) {
        // starting
      }
      Thread.sleep(250);
    }
    return false;
  }

  URI url() {
    return URI.create("http://127.0.0.1:" + port);
  }

  /** Sends SIGTERM, as a platform stopping an instance does. */
  void terminate() {
    rememberDescendants();
    process.destroy();
  }

  /** Every line the service wrote. */
  String output() {
    try {
      return Files.readString(output, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The processes the service started (the embedded emulator) that still run. */
  List<ProcessHandle> liveDescendants() {
    rememberDescendants();
    return descendants.stream().filter(ProcessHandle::isAlive).toList();
  }

  /** Kills the service and what it started, if still running; keeps the output file. */
  @Override
  public void close() {
    rememberDescendants();
    process.destroyForcibly();
    descendants.forEach(ProcessHandle::destroyForcibly);
  }

  private void rememberDescendants() {
    process.descendants().filter(p -> !descendants.contains(p)).forEach(descendants::add);
  }

  static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
