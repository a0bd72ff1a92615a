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
 *     starts an embedded PostgreSQL of its own (a temporary data directory, removed at shutdown),
 *     a development tool that the container image lacks: there, blank stops the service from
 *     starting
 * @param user database user
 * @param password database password
 * @param poolSize most connections one instance keeps open (HikariCP {@code maximumPoolSize})
 * @param connectionTimeout the most a call waits for a free pooled connection; a claim's steps wait
 *     at most what is left of the claim's deadline, if that is less
 * @param callTimeout the most any single statement may run ({@code statement_timeout}); a
 *     statement of a claim runs at most what is left of the claim's deadline, if that is less
 * @param lockTimeout the most one claim attempt waits for the user's advisory lock ({@code
 *     lock_timeout}; never more than what is left of the claim's deadline)
 * @param socketTimeout the most a call waits for the database to send anything (pgjdbc {@code
 *     socketTimeout}, whole seconds, rounded up): a connection that stops answering (a lost
 *     network, a stalled server) is closed then and its thread freed. Must be longer than {@code
 *     callTimeout}, which bounds statements that are slow but alive; the service refuses to start
 *     otherwise. Default: twice {@code callTimeout}. A claim's statements wait at most to its
 *     deadline plus {@code cancelGrace}
 * @param cancelGrace how long past a claim's deadline a claim's connection may still wait for the
 *     database to confirm that it cancelled the claim's statement; after it the connection counts
 *     as lost and is closed. Also the most a cancel request may take to reach the database
 * @param claimBatchSize the most claim attempts one call of the database carries: attempts that
 *     arrive while every claim call is busy wait for the next call and go in it together, one
 *     round trip and one commit for all of them
 * @param claimCalls the most claim calls one instance has in flight at once, each on a pooled
 *     connection; an attempt that finds a call free goes at once, alone if it is alone. About the
 *     database's cores: more calls at once contend inside the database for the same work
 * @param cleanupInterval how often each instance deletes expired guard and idempotency rows
 * @param cleanupBatchSize the most rows one delete statement of the cleanup removes, so that each
 *     holds its locks briefly
 * @param cleanupMaxBatches the most delete statements per table in one cleanup run; what is left
 *     waits for the next run
 * @param seedBatchSize codes per insert statement when seeding a pool; each statement commits on
 *     its own and logs one progress line
 * @param seedParallelism insert statements of seeding that run at the same time, each on a pooled
 *     connection of its own, shared by all seeding calls of the instance
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
    @Nullable Duration socketTimeout,
    @Bindable(defaultValue = "500ms") Duration cancelGrace,
    @Bindable(defaultValue = "32") int claimBatchSize,
    @Bindable(defaultValue = "4") int claimCalls,
    @Bindable(defaultValue = "1m") Duration cleanupInterval,
    @Bindable(defaultValue = "500") int cleanupBatchSize,
    @Bindable(defaultValue = "20") int cleanupMaxBatches,
    @Bindable(defaultValue = "2000") int seedBatchSize,
    @Bindable(defaultValue = "2") int seedParallelism,
    @Bindable(defaultValue = "0") int embeddedPort,
    @Bindable(defaultValue = "60s") Duration embeddedStartTimeout) {

  /** The socket timeout as configured, else twice the call timeout. */
  public Duration effectiveSocketTimeout() {
    return socketTimeout != null ? socketTimeout : callTimeout.multipliedBy(2);
  }

  /** Whether the service starts its own PostgreSQL: no URL is configured. */
  public boolean wantsEmbedded() {
    return url == null || url.isBlank();
  }
}
