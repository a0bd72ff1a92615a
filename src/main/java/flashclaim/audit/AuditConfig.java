package flashclaim.audit;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * How the audit reads a campaign ({@code flashclaim.audit.*}). It streams: memory holds at most a
 * page of rows per sequence, whatever the size of the campaign. The export of a campaign's claims
 * ({@code flashclaim.results}) reads the store the same way, with these settings.
 *
 * @param pageSize on Firestore, most documents one query of the audit or the export returns (a
 *     collection is read in queries of this size from one read time, each streamed a document at a
 *     time). Each query of the emulator scans the whole collection, so there it should exceed the
 *     campaign's coupons; in production a query costs only the documents it returns, and must
 *     finish within the client's RunQuery deadline (5 minutes)
 * @param fetchSize on PostgreSQL, rows one round trip of the audit's and the export's cursors
 *     fetches: what they hold at most per sequence
 * @param rowTimeout on Firestore, the longest the audit or the export waits for the next document
 *     of a query (the first one waits for the query to start answering); past it the audit fails
 *     with a 503
 * @param statementTimeout on PostgreSQL, the longest one of the audit's or the export's streamed
 *     queries may run, from its start until its last row is read ({@code statement_timeout} of
 *     their transaction); every other statement of the service has {@code
 *     flashclaim.postgres.call-timeout}, which streaming a large campaign, or any campaign while
 *     claims load the database, may exceed. Past it the audit fails with a 503
 */
@ConfigurationProperties("flashclaim.audit")
public record AuditConfig(
    @Bindable(defaultValue = "100000") int pageSize,
    @Bindable(defaultValue = "1000") int fetchSize,
    @Bindable(defaultValue = "60s") Duration rowTimeout,
    @Bindable(defaultValue = "10m") Duration statementTimeout) {

  public AuditConfig {
    if (pageSize < 1 || fetchSize < 1) {
      throw new IllegalArgumentException(
          "flashclaim.audit.page-size and flashclaim.audit.fetch-size must be at least 1");
    }
    if (rowTimeout.isNegative()
        || rowTimeout.isZero()
        || statementTimeout.isNegative()
        || statementTimeout.isZero()) {
      throw new IllegalArgumentException(
          "flashclaim.audit.row-timeout and flashclaim.audit.statement-timeout must be positive");
    }
  }
}
