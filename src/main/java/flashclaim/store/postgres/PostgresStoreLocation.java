package flashclaim.store.postgres;

import flashclaim.auth.StoreLocation;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;

/** Where the PostgreSQL store is: the embedded server is local, a database given by URL is not. */
@Singleton
@Requires(property = "flashclaim.store", value = "postgres")
final class PostgresStoreLocation implements StoreLocation {
  private final PostgresConfig config;

  PostgresStoreLocation(PostgresConfig config) {
    this.config = config;
  }

  @Override
  public String description() {
    return config.wantsEmbedded()
        ? "the embedded PostgreSQL"
        : "the PostgreSQL database of flashclaim.postgres.url";
  }

  @Override
  public boolean local() {
    return config.wantsEmbedded();
  }
}
