package flashclaim.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/image-run} starts an image tar's entrypoint as a container runtime does: in the
 * image's own root, as its user, in its working directory, as PID 1 of a namespace of its own,
 * with the image's environment, the variables given with {@code -e} (by name, with a value, or by
 * prefix) and {@code IMAGE_JAVA_OPTS}
 * (through JDK_JAVA_OPTIONS), and nothing else of the caller's; SIGTERM sent to the script alone
 * stops the JVM (its shutdown hooks run) and leaves no process behind. The image here is a
 * runtime of {@code bin/image-runtime} (java.base only, so that jlink is quick) and a class that
 * prints what it sees and waits. Starting needs root (namespaces of its own); the test is skipped
 * elsewhere.
 */
class ImageRunScriptTest {
  private static final Path BIN = Path.of("bin").toAbsolutePath();
  private static final String PROBE =
      String.join(
          "\n",
          "import java.nio.file.*;",
          "public class Probe {",
          "  public static void main(String[] args) throws Exception {",
          "    Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println(\"hook ran\")));",
          "    String uid = Files.readAllLines(Path.of(\"/proc/self/status\")).stream()",
          "        .filter(l -> l.startsWith(\"Uid:\")).findFirst().orElse(\"?\").split(\"\\\\s+\")[1];",
          "    System.out.println(\"pid=\" + ProcessHandle.current().pid());",
          "    System.out.println(\"uid=\" + uid);",
          "    System.out.println(\"dir=\" + System.getProperty(\"user.dir\"));",
          "    System.out.println(\"image=\" + System.getenv(\"FROM_IMAGE\"));",
          "    System.out.println(\"given=\" + System.getenv(\"GIVEN\"));",
          "    System.out.println(\"named=\" + System.getenv(\"NAMED\"));",
          "    System.out.println(\"host=\" + System.getenv(\"HOST_ONLY\"));",
          "    System.out.println(\"prefixed=\" + System.getenv(\"PREFIXED_ONE\"));",
          "    System.out.println(\"flag=\" + System.getProperty(\"probe.flag\"));",
          "    System.out.println(\"inImage=\" + Files.exists(Path.of(\"/app/Probe.class\")));",
          "    System.out.println(\"ready\");",
          "    Thread.sleep(600_000);",
          "  }",
          "}",
          "");

  @Test
  void theEntrypointRunsInTheImageWithItsEnvironmentAndStopsOnSigterm(@TempDir Path dir)
      throws Exception {
    assumeTrue(isRoot(), "bin/image-run starts in namespaces of its own: needs root");
    Path rootfs = dir.resolve("rootfs");
    run(List.of(BIN.resolve("image-runtime").toString(), rootfs.toString()), dir, "image-runtime");
    Path app = Files.createDirectories(rootfs.resolve("app"));
    Files.createDirectories(rootfs.resolve("home/nonroot"));
    Path source = dir.resolve("Probe.java");
    Files.writeString(source, PROBE, StandardCharsets.UTF_8);
    assertThat(
            ToolProvider.getSystemJavaCompiler()
                .run(null, null, null, "-d", app.toString(), source.toString()))
        .as("Probe compiles")
        .isZero();
    Path tar =
        image(
            dir,
            rootfs,
            "\"Entrypoint\":[\"/opt/java/bin/java\",\"-cp\",\"/app\",\"Probe\"],"
                + "\"Env\":[\"PATH=/opt/java/bin:/usr/bin:/bin\",\"FROM_IMAGE=yes\",\"GIVEN=image\"],"
                + "\"User\":\"65532:65532\",\"WorkingDir\":\"/home/nonroot\"");
    Path log = dir.resolve("image-run.log");

    ProcessBuilder builder =
        new ProcessBuilder(
                BIN.resolve("image-run").toString(),
                "--image",
                tar.toString(),
                "-e",
                "GIVEN=by -e",
                "-e",
                "NAMED",
                "-e",
                "PREFIXED_*")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().put("IMAGE_RUN_CACHE", dir.resolve("cache").toString());
    builder.environment().put("IMAGE_JAVA_OPTS", "-Dprobe.flag=on");
    builder.environment().put("NAMED", "from the caller");
    builder.environment().put("HOST_ONLY", "not passed");
    builder.environment().put("PREFIXED_ONE", "by prefix");
    Process process = builder.start();
    try {
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
      while (!Files.readString(log).contains("ready\n")) {
        assertThat(process.isAlive()).as("running; output:%n%s", Files.readString(log)).isTrue();
        assertThat(System.nanoTime()).as("ready within 2 min").isLessThan(deadline);
        Thread.sleep(100);
      }
      List<ProcessHandle> below = process.descendants().toList();
      String output = Files.readString(log);
      assertThat(output)
          .contains(
              "pid=1\n",
              "uid=65532\n",
              "dir=/home/nonroot\n",
              "image=yes\n",
              "given=by -e\n",
              "named=from the caller\n",
              "host=null\n",
              "prefixed=by prefix\n",
              "flag=on\n",
              "inImage=true\n");

      process.destroy(); // SIGTERM, to the script alone
      assertThat(process.waitFor(1, TimeUnit.MINUTES)).as("stopped by SIGTERM").isTrue();
      assertThat(process.exitValue()).as("the JVM's exit status on SIGTERM").isEqualTo(143);
      assertThat(Files.readString(log)).contains("hook ran\n");
      assertThat(below).as("unshare and the JVM").hasSizeGreaterThanOrEqualTo(2);
      for (ProcessHandle p : below) {
        p.onExit().get(30, TimeUnit.SECONDS);
      }
    } finally {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
    }
  }

  @Test
  void anImageWithoutEntrypointIsRefused(@TempDir Path dir) throws Exception {
    Path rootfs = Files.createDirectories(dir.resolve("rootfs/app"));
    Files.writeString(rootfs.resolve("file"), "x", StandardCharsets.UTF_8);
    Path tar = image(dir, dir.resolve("rootfs"), "\"Env\":[\"PATH=/bin\"]");
    Path log = dir.resolve("image-run.log");
    ProcessBuilder builder =
        new ProcessBuilder(BIN.resolve("image-run").toString(), "--image", tar.toString(), "--unpack")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().put("IMAGE_RUN_CACHE", dir.resolve("cache").toString());
    Process process = builder.start();
    assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("finished").isTrue();

    assertThat(process.exitValue()).as("exit code; output:%n%s", Files.readString(log)).isEqualTo(1);
    assertThat(Files.readString(log)).contains("its config has no entrypoint");
  }

  /** An image tar in the `docker save` layout: one layer of rootfs, and a config of CONFIG. */
  private static Path image(Path dir, Path rootfs, String config) throws Exception {
    Path image = Files.createDirectories(dir.resolve("image"));
    run(
        List.of("tar", "-czf", image.resolve("layer.tar.gz").toString(), "-C", rootfs.toString(), "."),
        dir,
        "tar");
    Files.writeString(
        image.resolve("manifest.json"),
        "[{\"Config\":\"config.json\",\"Layers\":[\"layer.tar.gz\"]}]",
        StandardCharsets.UTF_8);
    Files.writeString(
        image.resolve("config.json"), "{\"config\":{" + config + "}}", StandardCharsets.UTF_8);
    Path tar = dir.resolve("image.tar");
    run(List.of("tar", "-cf", tar.toString(), "-C", image.toString(), "."), dir, "tar");
    return tar;
  }

  private static boolean isRoot() throws IOException, InterruptedException {
    Process id = new ProcessBuilder("id", "-u").redirectErrorStream(true).start();
    String uid = new String(id.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    return id.waitFor() == 0 && uid.equals("0");
  }

  /** Runs COMMAND (with the test JVM as JAVA_HOME, java.base its only module) to success. */
  private static void run(List<String> command, Path dir, String name) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().putAll(
        Map.of("JAVA_HOME", System.getProperty("java.home"), "IMAGE_JAVA_MODULES", "java.base"));
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(5, TimeUnit.MINUTES) && process.exitValue() == 0)
        .as("%s in %s succeeded; output:%n%s", name, dir, output)
        .isTrue();
  }
}
