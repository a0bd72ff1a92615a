package flashclaim.campaign;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * Imports of codes from a file ({@code flashclaim.seeding.files.*}), see {@link CodeImports}.
 *
 * @param batchSize codes read from the file before they are added to the pool in one call of the
 *     store; one batch is written while the next is read, so an import holds about two
 * @param maxLineLength the longest line (a CSV row with all its columns) in characters; a longer
 *     one is reported invalid and not kept
 * @param maxRunning imports that may run on one instance at once; one more is answered 503 with
 *     Retry-After before its body is read
 * @param maxKept import states one instance keeps for the import resource (the GET of an import
 *     by its id), running ones included; the oldest finished one is forgotten first
 * @param retention how long the state of a finished import stays readable
 */
@ConfigurationProperties("flashclaim.seeding.files")
public record CodeImportConfig(
    @Bindable(defaultValue = "10000") int batchSize,
    @Bindable(defaultValue = "1024") int maxLineLength,
    @Bindable(defaultValue = "4") int maxRunning,
    @Bindable(defaultValue = "1000") int maxKept,
    @Bindable(defaultValue = "1h") Duration retention) {

  public CodeImportConfig {
    if (batchSize < 1 || maxLineLength < 1 || maxRunning < 1 || maxKept < maxRunning) {
      throw new IllegalArgumentException(
          "flashclaim.seeding.files: batch-size, max-line-length and max-running must be at least"
              + " 1, max-kept at least max-running");
    }
    if (retention.isNegative()) {
      throw new IllegalArgumentException("flashclaim.seeding.files.retention must not be negative");
    }
  }
}
