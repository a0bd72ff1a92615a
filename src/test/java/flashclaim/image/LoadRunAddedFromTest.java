package flashclaim.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/load-run}'s {@code --added-from}: refused, before anything starts, without
 * {@code --add-instance-at}, with another value than jar or image, outside W1, and with image
 * when there is no image tar.
 */
class LoadRunAddedFromTest {
  private static final Path LOAD_RUN = Path.of("bin", "load-run").toAbsolutePath();

  @Test
  void withoutAddInstanceAt() throws Exception {
    assertRefused("--added-from needs --add-instance-at", null, "W1", "--added-from", "image");
  }

  @Test
  void anotherSource() throws Exception {
    assertRefused(
        "--added-from must be jar or image", null, "W1", "--add-instance-at", "8", "--added-from",
        "docker");
    assertRefused("--added-from must be jar or image", null, "W1", "--added-from");
  }

  @Test
  void anotherWorkload() throws Exception {
    assertRefused(
        "--add-instance-at and --pause-at are options of W1", null, "W2", "--add-instance-at", "8",
        "--added-from", "image");
  }

  @Test
  void noImage() throws Exception {
    assertRefused(
        "--added-from image: no image /nonexistent/image.tar", "/nonexistent/image.tar", "W1",
        "--add-instance-at", "8", "--added-from", "image");
  }

  private static void assertRefused(String message, String imageTar, String... args)
      throws Exception {
    List<String> command = new ArrayList<>(List.of(LOAD_RUN.toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    if (imageTar != null) {
      builder.environment().put("IMAGE_TAR", imageTar);
    }
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(1, TimeUnit.MINUTES)).as("finished").isTrue();
    assertThat(process.exitValue()).as("exit code; output:%n%s", output).isEqualTo(1);
    assertThat(output).contains("load-run: " + message);
  }
}
