package flashclaim.store.postgres;

import flashclaim.audit.AuditConfig;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CouponCode;
import flashclaim.claim.UserId;
import flashclaim.results.ClaimExport;
import flashclaim.results.CouponRecord;
import flashclaim.results.ResultsStore;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * The results on PostgreSQL: a claim row joined with its coupon row (the redemption). The export
 * reads in a {@link PostgresSnapshot}, the audit's snapshot read; a user's claims are one
 * statement, a code one row by its key. Rows come in the claims' primary-key order (user key, then
 * slot as text, which the database sorts within each user), the order of claim record ids on
 * Firestore.
 */
@Singleton
@Requires(bean = PostgresCalls.class)
final class PostgresResultsStore implements ResultsStore {
  private static final String CLAIMS =
      "SELECT c.code, c.user_key, c.claimed_at, k.redemption_state, k.order_id"
          + " FROM claims c LEFT JOIN coupons k ON k.campaign_id = c.campaign_id AND k.code = c.code"
          + " WHERE c.campaign_id = ?";
  private static final String CLAIM_ORDER = " ORDER BY c.user_key, c.slot::text COLLATE \"C\"";

  private final PostgresCalls db;
  private final AuditConfig audit;

  PostgresResultsStore(PostgresCalls db, AuditConfig audit) {
    this.db = db;
    this.audit = audit;
  }

  @Override
  public ClaimExport export(CampaignId campaign) {
    PostgresSnapshot snapshot =
        PostgresSnapshot.open(db, audit.statementTimeout(), "read the claims for the export");
    try {
      Iterator<CouponRecord> rows =
          snapshot.cursor(
              CLAIMS + CLAIM_ORDER, audit.fetchSize(), PostgresResultsStore::claim, campaign.value());
      return ClaimExport.of(snapshot.readAt(), rows, snapshot::close);
    } catch (RuntimeException e) {
      snapshot.close();
      throw e;
    }
  }

  @Override
  public List<CouponRecord> claimsOf(CampaignId campaign, UserId user) {
    return db.call(
        "read a user's claims",
        connection -> {
          try (PreparedStatement select =
                  PostgresCalls.prepare(
                      connection,
                      CLAIMS + " AND c.user_key = ?" + CLAIM_ORDER,
                      campaign.value(),
                      user.key());
              ResultSet row = select.executeQuery()) {
            List<CouponRecord> claims = new ArrayList<>();
            while (row.next()) {
              claims.add(claim(row));
            }
            return claims;
          }
        });
  }

  @Override
  public Optional<CouponRecord> coupon(CampaignId campaign, CouponCode code) {
    return db.call(
        "read a coupon",
        connection -> {
          try (PreparedStatement select =
                  PostgresCalls.prepare(
                      connection,
                      "SELECT code, assigned_to, assigned_at, redemption_state, order_id"
                          + " FROM coupons WHERE campaign_id = ? AND code = ?",
                      campaign.value(),
                      code.value());
              ResultSet row = select.executeQuery()) {
            return row.next()
                ? Optional.of(
                    CouponRecord.of(
                        row.getString("code"),
                        row.getString("assigned_to"),
                        PostgresCalls.instant(row, "assigned_at"),
                        row.getString("redemption_state"),
                        row.getString("order_id")))
                : Optional.<CouponRecord>empty();
          }
        });
  }

  private static CouponRecord claim(ResultSet row) throws SQLException {
    return CouponRecord.of(
        row.getString("code"),
        row.getString("user_key"),
        PostgresCalls.instant(row, "claimed_at"),
        row.getString("redemption_state"),
        row.getString("order_id"));
  }
}
