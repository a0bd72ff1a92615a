package flashclaim.store.postgres;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * Where the PostgreSQL store is and how it is called ({@code flashclaim.postgres.*}), used when
 * {@code flashclaim.store=postgres}.
 *
 * @param url JDBC URL of the database (env {@code FLASHCLAIM_POSTGRES_URL}); blank: the service
 *     starts an embedded PostgreSQL of its own (a temporary data directory, removed at shutdown)
 * @param user database user
 * @param password database password
 * @param poolSize most connections one instance keeps open (HikariCP {@code maximumPoolSize})
 * @param connectionTimeout the most a call waits for a free pooled connection
 * @param callTimeout the most any single statement may run ({@code statement_timeout})
 * @param lockTimeout the most one claim attempt waits for the user's advisory lock ({@code
 *     lock_timeout}; never more than what is left of the claim's deadline)
 * @param embeddedPort port of the embedded PostgreSQL; 0 picks a free one
 * @param embeddedStartTimeout how long to wait for the embedded PostgreSQL to accept connections
 */
@ConfigurationProperties("flashclaim.postgres")
public record PostgresConfig(
    @Nullable String url,
    @Bindable(defaultValue = "postgres") String user,
    @Bindable(defaultValue = "") String password,
    @Bindable(defaultValue = "16") int poolSize,
    @Bindable(defaultValue = "1s") Duration connectionTimeout,
    @Bindable(defaultValue = "5s") Duration callTimeout,
    @Bindable(defaultValue = "500ms") Duration lockTimeout,
    @Bindable(defaultValue = "0") int embeddedPort,
    @Bindable(defaultValue = "60s") Duration embeddedStartTimeout) {

  /** Whether the service starts its own PostgreSQL: no URL is configured. */
  public boolean wantsEmbedded() {
    return url == null || url.isBlank();
  }
}
