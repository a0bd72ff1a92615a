package flashclaim.claim;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.PostgresBackend;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.TestPostgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import org.junit.jupiter.api.Test;

/**
 * The sold-out fast path on PostgreSQL (embedded), and its counter: {@code coupons_added} moves in
 * the transaction of the inserts, so it equals the number of coupons at every commit.
 */
class PostgresSoldOutFastPathTest extends SoldOutFastPathContract {
  private final StoreBackend backend = new PostgresBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }

  @Test
  void couponsAddedCountsEveryCouponOnceUnderConcurrentSeeding() throws Exception {
    String campaign = newCampaign(1, 0);
    // six calls at once through three instances, each half new, half another call's codes
    runAll(
        6,
        i -> () -> addCodes(i % INSTANCES, campaign, codes(campaign, i * 10, i * 10 + 20)));
    assertThat(addCodes(0, campaign, codes(campaign, 0, 70)))
        .as("a repeat adds nothing")
        .isZero();

    try (Connection connection = TestPostgres.connect();
        PreparedStatement select =
            connection.prepareStatement(
                "SELECT coupons_added, (SELECT count(*) FROM coupons WHERE campaign_id = id)"
                    + " FROM campaigns WHERE id = ?")) {
      select.setString(1, campaign);
      try (ResultSet row = select.executeQuery()) {
        assertThat(row.next()).isTrue();
        assertThat(row.getLong(1)).isEqualTo(70);
        assertThat(row.getLong(2)).isEqualTo(70);
      }
    }
  }
}
