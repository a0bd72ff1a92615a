package flashclaim.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/image-archive} fails, and leaves no archive, when its training start does not get
 * ready, whichever archive the entrypoint names (an AppCDS archive or an AOT cache), and when the
 * entrypoint names none: the image build stops there rather than build an image whose entrypoint
 * names an archive it does not have. The training image here is a runtime of {@code
 * bin/image-runtime} (java.base only, so jlink is quick) whose entrypoint, {@code java
 * <archive> -version}, exits at once. (ImageTest covers the training start of the service's own
 * images, whose archives they then use.)
 */
class ImageArchiveScriptTest {
  private static final Path BIN = Path.of("bin").toAbsolutePath();

  @TempDir static Path runtime;

  @BeforeAll
  static void makeTheRuntime() throws Exception {
    run(
        runtime,
        List.of(BIN.resolve("image-runtime").toString(), runtime.resolve("rootfs").toString()),
        "image-runtime");
  }

  @Test
  void aTrainingStartThatExitsBeforeReadyFailsTheScriptAndLeavesNoArchive(@TempDir Path dir)
      throws Exception {
    String output =
        imageArchive(
            dir,
            "-XX:SharedArchiveFile=/opt/java/lib/server/classes.jsa:/app/flashclaim.jsa",
            "/app/flashclaim.jsa");
    assertThat(output).contains("the training start did not get ready");
    assertThat(dir.resolve("archive/app/flashclaim.jsa")).doesNotExist();
  }

  /** The test's runtime (Java 17) does not know -XX:AOTCacheOutput: the training start stops. */
  @Test
  void anAotTrainingStartThatExitsBeforeReadyFailsTheScriptAndLeavesNoCache(@TempDir Path dir)
      throws Exception {
    String output =
        imageArchive(dir, "-XX:AOTCache=/app/flashclaim.aot", "/app/flashclaim.aot");
    assertThat(output).contains("the training start did not get ready");
    assertThat(dir.resolve("archive/app/flashclaim.aot")).doesNotExist();
  }

  @Test
  void anEntrypointThatNamesNoArchiveFailsTheScript(@TempDir Path dir) throws Exception {
    String output = imageArchive(dir, "-Xshare:auto", "/app/flashclaim.jsa");
    assertThat(output)
        .contains("the entrypoint names neither -XX:SharedArchiveFile=...:/app/flashclaim.jsa"
            + " nor -XX:AOTCache=/app/flashclaim.jsa");
    assertThat(dir.resolve("archive/app/flashclaim.jsa")).doesNotExist();
  }

  /**
   * Runs the script on a training image of the test's runtime whose entrypoint is {@code java
   * ARCHIVE_OPTION -version}, for ARCHIVE_PATH; expects it to fail and returns its output.
   */
  private static String imageArchive(Path dir, String archiveOption, String archivePath)
      throws Exception {
    Path image = Files.createDirectories(dir.resolve("image"));
    run(dir, List.of("tar", "-czf", image.resolve("layer.tar.gz").toString(), "-C",
        runtime.resolve("rootfs").toString(), "."), "tar");
    Files.writeString(
        image.resolve("manifest.json"),
        "[{\"Config\":\"config.json\",\"Layers\":[\"layer.tar.gz\"]}]",
        StandardCharsets.UTF_8);
    Files.writeString(
        image.resolve("config.json"),
        "{\"config\":{\"Entrypoint\":[\"/opt/java/bin/java\",\""
            + archiveOption
            + "\",\"-version\"],"
            + "\"Env\":[\"PATH=/opt/java/bin:/usr/bin:/bin\"],\"User\":\"65532:65532\","
            + "\"WorkingDir\":\"/home/nonroot\"}}",
        StandardCharsets.UTF_8);
    Path tar = dir.resolve("training.tar");
    run(dir, List.of("tar", "-cf", tar.toString(), "-C", image.toString(), "."), "tar");

    ProcessBuilder builder =
        new ProcessBuilder(
                BIN.resolve("image-archive").toString(),
                tar.toString(),
                dir.resolve("archive").toString(),
                archivePath)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("image-archive.log").toFile());
    // The training start never reaches the store: any address does.
    builder.environment().put("FIRESTORE_EMULATOR_HOST", "127.0.0.1:9");
    builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    Process process = builder.start();
    assertThat(process.waitFor(5, TimeUnit.MINUTES)).as("finished").isTrue();
    String output = Files.readString(dir.resolve("image-archive.log"));
    assertThat(process.exitValue()).as("exit code; output:%n%s", output).isNotZero();
    return output;
  }

  private static void run(Path dir, List<String> command, String name) throws Exception {
    Path log = dir.resolve(name + ".log");
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    builder.environment().put("IMAGE_JAVA_MODULES", "java.base");
    Process process = builder.start();
    assertThat(process.waitFor(5, TimeUnit.MINUTES)).as("%s finished", name).isTrue();
    assertThat(process.exitValue())
        .as("%s exit code; output:%n%s", name, Files.readString(log))
        .isZero();
  }
}
