package flashclaim.audit;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.PostgresBackend;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.TestPostgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import org.junit.jupiter.api.Test;

/** The streamed, consistent audit on PostgreSQL. */
class PostgresAuditTest extends AuditContract {
  private final StoreBackend backend = new PostgresBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }

  @Override
  protected void corrupt(String campaign, String heldCode, String freeCode) throws Exception {
    try (Connection c = TestPostgres.connect();
        PreparedStatement claim =
            c.prepareStatement(
                "INSERT INTO claims (campaign_id, user_key, slot, code, claimed_at)"
                    + " VALUES (?, 'intruder', 5, ?, now())");
        PreparedStatement squat =
            c.prepareStatement(
                "UPDATE coupons SET assigned_to = 'squatter', claim_slot = 0, assigned_at = now()"
                    + " WHERE campaign_id = ? AND code = ?")) {
      claim.setString(1, campaign);
      claim.setString(2, heldCode);
      claim.executeUpdate();
      squat.setString(1, campaign);
      squat.setString(2, freeCode);
      squat.executeUpdate();
    }
  }

  @Override
  protected void hideFromClaims(String campaign, String freeCode) throws Exception {
    try (Connection c = TestPostgres.connect();
        PreparedStatement take =
            c.prepareStatement("DELETE FROM coupon_pool WHERE campaign_id = ? AND code = ?")) {
      take.setString(1, campaign);
      take.setString(2, freeCode);
      assertThat(take.executeUpdate()).isEqualTo(1);
    }
  }

  @Override
  protected void offerAgain(String campaign, String freeCode) throws Exception {
    try (Connection c = TestPostgres.connect();
        PreparedStatement repair =
            c.prepareStatement(
                "WITH added AS ("
                    + " INSERT INTO coupon_pool (campaign_id, pick_order, code)"
                    + " SELECT k.campaign_id, k.pick_order, k.code FROM coupons k"
                    + " WHERE k.campaign_id = ? AND k.assigned_to IS NULL"
                    + " AND NOT EXISTS (SELECT 1 FROM coupon_pool p"
                    + "   WHERE p.campaign_id = k.campaign_id AND p.code = k.code)"
                    + " RETURNING 1)"
                    + " UPDATE campaigns SET coupons_added = coupons_added"
                    + " + (SELECT count(*) FROM added) WHERE id = ?")) {
      repair.setString(1, campaign);
      repair.setString(2, campaign);
      assertThat(repair.executeUpdate()).isEqualTo(1);
    }
  }

  /** A second pool row for a coupon changes nothing the audit counts (the claim skips it too). */
  @Test
  void aCouponWithTwoPoolRowsIsAuditedOnce() throws Exception {
    String campaign = newCampaign(1, 5);
    try (Connection c = TestPostgres.connect();
        PreparedStatement twice =
            c.prepareStatement(
                "INSERT INTO coupon_pool (campaign_id, pick_order, code)"
                    + " SELECT campaign_id, pick_order, code FROM coupon_pool"
                    + " WHERE campaign_id = ?")) {
      twice.setString(1, campaign);
      assertThat(twice.executeUpdate()).isEqualTo(5);
    }
    assertThat(audit(0, campaign))
        .containsEntry("ok", true)
        .containsEntry("coupons", 5)
        .containsEntry("assigned", 0)
        .containsEntry("problemCount", 0);
  }

  @Override
  protected String couponId(String code) {
    return code;
  }
}
