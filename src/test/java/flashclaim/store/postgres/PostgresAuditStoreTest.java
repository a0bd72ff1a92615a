package flashclaim.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import flashclaim.StoreException;
import flashclaim.audit.AuditConfig;
import flashclaim.audit.AuditStoreContract;
import flashclaim.campaign.Campaign;
import flashclaim.testing.StoreClients;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Iterator;
import org.junit.jupiter.api.Test;

/** {@link AuditStoreContract} on PostgreSQL. */
class PostgresAuditStoreTest extends AuditStoreContract {
  @Override
  protected StoreClients openClients(int n) {
    return PostgresClients.fresh("audit_store", n);
  }

  /**
   * Every statement of the service runs under {@code flashclaim.postgres.call-timeout}; the audit's
   * streamed queries under {@code flashclaim.audit.statement-timeout}: with a call timeout of 5 ms,
   * which the first page of 200,000 coupons (sorted by code) takes longer than, the audit still
   * reads them all, and it fails when its own timeout is as short.
   */
  @Test
  void theAuditsQueriesRunUnderTheAuditsOwnTimeout() throws SQLException {
    Campaign campaign = newCampaign(1, 200_000);
    PostgresConfig hasty = PostgresClients.withCallTimeout(Duration.ofMillis(5));
    try (HikariDataSource pool =
        new HikariDataSource(PostgresFactory.poolConfig(hasty, clients().location()))) {
      PostgresCalls calls = new PostgresCalls(pool, hasty);
      AuditConfig patient = new AuditConfig(100_000, 1_000, Duration.ofMinutes(1), Duration.ofMinutes(10));
      long coupons =
          new PostgresAuditStore(calls, patient)
              .read(campaign.id(), view -> count(view.coupons()));
      assertThat(coupons).isEqualTo(200_000);

      AuditConfig hastyAudit =
          new AuditConfig(100_000, 1_000, Duration.ofMinutes(1), Duration.ofMillis(5));
      assertThatThrownBy(
              () ->
                  new PostgresAuditStore(calls, hastyAudit)
                      .read(campaign.id(), view -> count(view.coupons())))
          .isInstanceOf(StoreException.class)
          .hasMessageContaining("statement timeout");
    }
  }

  private static long count(Iterator<?> rows) {
    long n = 0;
    for (; rows.hasNext(); rows.next()) {
      n++;
    }
    return n;
  }
}
