package flashclaim.http;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.ApiContract;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The OpenAPI document the service serves passes {@code redocly lint} with the rules of the
 * committed {@code redocly.yaml} (the recommended ones, less those it switches off with a reason):
 * no error and no warning. The CLI is the pinned {@value #REDOCLY}, run through {@code npx} from
 * the npm registry.
 */
class OpenApiLintTest {
  static final String REDOCLY = "@redocly/cli@2.77.0";

  @Test
  void theServedDocumentPassesRedoclyLint() throws IOException, InterruptedException {
    Path dir = Files.createDirectories(Path.of("target", "openapi-lint"));
    Path document = dir.resolve("flashclaim-v1.yml");
    Files.writeString(document, ApiContract.document());
    Path output = dir.resolve("redocly-lint.txt");
    Process lint =
        new ProcessBuilder(
                List.of(
                    "npx",
                    "--yes",
                    REDOCLY,
                    "lint",
                    "--config",
                    "redocly.yaml",
                    "--max-problems",
                    "1000",
                    document.toString()))
            .redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .start();
    if (!lint.waitFor(5, TimeUnit.MINUTES)) {
      lint.destroyForcibly();
      throw new AssertionError("redocly lint did not finish in 5 minutes");
    }
    String said = Files.readString(output, StandardCharsets.UTF_8);
    assertThat(lint.exitValue()).as(said).isZero();
    assertThat(said)
        .as(said)
        .contains("Your API description is valid")
        .doesNotContainPattern("You have \\d+ warning");
  }
}
