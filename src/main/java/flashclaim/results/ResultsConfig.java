package flashclaim.results;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;

/**
 * The export of claims ({@code flashclaim.results.*}). How it reads the store (page and fetch
 * sizes, timeouts) is the audit's: {@code flashclaim.audit.*}.
 *
 * @param maxExports exports one instance streams at once; the next is answered 503 {@code
 *     overloaded}. Each holds a database connection of the pool (PostgreSQL) or a query (Firestore)
 *     for as long as its client takes to download, and a thread of the store executor while it
 *     reads a chunk
 * @param chunkBytes about how many bytes of rows the export writes to the connection at once: what
 *     it holds in memory besides the rows of the store's current page
 */
@ConfigurationProperties("flashclaim.results")
public record ResultsConfig(
    @Bindable(defaultValue = "2") int maxExports,
    @Bindable(defaultValue = "65536") int chunkBytes) {

  public ResultsConfig {
    if (maxExports < 1 || chunkBytes < 1) {
      throw new IllegalArgumentException(
          "flashclaim.results.max-exports and flashclaim.results.chunk-bytes must be at least 1");
    }
  }
}
