package flashclaim.http;

import flashclaim.Application;
import flashclaim.testing.ServiceInstance;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The service's main class in a JVM of its own, with its own memory limits, on the test store: what
 * an operator runs, so that running out of memory shows as it would in production, in its output.
 */
final class ChildService implements AutoCloseable {
  private static final Pattern RUNNING = Pattern.compile("Server Running: http://[^:]+:(\\d+)");

  private final Process process;
  private final StringBuffer output = new StringBuffer();
  private final CompletableFuture<Integer> port = new CompletableFuture<>();

  private ChildService(List<String> command) throws IOException {
    process = new ProcessBuilder(command).redirectErrorStream(true).start();
    Thread reader = new Thread(this::drain, "child-service-output");
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Starts the service with these JVM options and properties on top of the test defaults, on a
   * free port, and waits until it serves.
   */
  static ChildService start(List<String> jvmOptions, Map<String, Object> properties)
      throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    ServiceInstance.withTestDefaults(properties)
        .forEach((name, value) -> command.add("-D" + name + "=" + value));
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(Application.class.getName());
    ChildService child = new ChildService(command);
    try {
      child.port.get(120, TimeUnit.SECONDS);
    } catch (Exception e) {
      child.close();
      throw new IllegalStateException("the service did not start:\n" + child.output(), e);
    }
    return child;
  }

  URI url() {
    return URI.create("http://127.0.0.1:" + port.join());
  }

  /** Everything the service printed so far. */
  String output() {
    return output.toString();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  private void drain() {
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        output.append(line).append('\n');
        Matcher running = RUNNING.matcher(line);
        if (running.find()) {
          port.complete(Integer.parseInt(running.group(1)));
        }
      }
    } catch (IOException e) {
      output.append("[output lost: ").append(e.getMessage()).append("]\n");
    } finally {
      port.completeExceptionally(new IllegalStateException("the service exited"));
    }
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(Duration.ofSeconds(30).toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
  }
}
