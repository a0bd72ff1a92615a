package flashclaim.store.postgres;

import flashclaim.audit.AuditConfig;
import flashclaim.audit.AuditStore;
import flashclaim.campaign.CampaignId;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Requires;
import java.time.Instant;
import java.util.Iterator;
import java.util.function.Function;

/**
 * The audit's read on PostgreSQL: one {@link PostgresSnapshot}, so both sequences come from one
 * snapshot, each read through its own cursor {@code fetch-size} rows at a time. Ids sort in byte
 * order ({@code COLLATE "C"}), the order of {@link String#compareTo} for the ASCII codes. The claim
 * records have no index by code, so the database sorts them itself (on disk past {@code
 * work_mem}), not the service.
 */
@Context // created at startup, so that a bad flashclaim.audit configuration refuses to start
@Requires(bean = PostgresCalls.class)
final class PostgresAuditStore implements AuditStore {
  private static final String WHAT = "read the campaign for the audit";

  private final PostgresCalls db;
  private final AuditConfig audit;

  PostgresAuditStore(PostgresCalls db, AuditConfig audit) {
    this.db = db;
    this.audit = audit;
  }

  @Override
  public <T> T read(CampaignId campaign, Function<View, T> reader) {
    try (PostgresSnapshot snapshot = PostgresSnapshot.open(db, audit.statementTimeout(), WHAT)) {
      return reader.apply(new PostgresView(snapshot, campaign));
    }
  }

  private final class PostgresView implements View {
    private final PostgresSnapshot snapshot;
    private final CampaignId campaign;

    PostgresView(PostgresSnapshot snapshot, CampaignId campaign) {
      this.snapshot = snapshot;
      this.campaign = campaign;
    }

    @Override
    public Instant readAt() {
      return snapshot.readAt();
    }

    @Override
    public Iterator<CouponRow> coupons() {
      // One hash join rather than a lookup per coupon (through a cursor, 1.2 s for 1,000,000
      // coupons on the machine of docs/benchmarks.md, against 3.5 s). DISTINCT ON passes a coupon
      // with two pool rows once; on rows already sorted by code it costs next to nothing.
      return snapshot.cursor(
          "SELECT DISTINCT ON (k.code COLLATE \"C\") k.code, k.assigned_to, k.claim_slot,"
              + " p.code IS NOT NULL AS offered"
              + " FROM coupons k LEFT JOIN coupon_pool p"
              + " ON p.campaign_id = k.campaign_id AND p.code = k.code"
              + " WHERE k.campaign_id = ? ORDER BY k.code COLLATE \"C\"",
          audit.fetchSize(),
          row -> {
            String code = row.getString("code");
            String holder = row.getString("assigned_to");
            return new CouponRow(
                code,
                code,
                holder != null,
                holder,
                holder == null ? null : PostgresLayout.claimId(holder, row.getInt("claim_slot")),
                row.getBoolean("offered"));
          },
          campaign.value());
    }

    @Override
    public Iterator<ClaimRow> claimsByCoupon() {
      return snapshot.cursor(
          "SELECT user_key, slot, code FROM claims WHERE campaign_id = ?"
              + " ORDER BY code COLLATE \"C\", user_key, slot",
          audit.fetchSize(),
          row -> {
            String user = row.getString("user_key");
            int slot = row.getInt("slot");
            String code = row.getString("code");
            return new ClaimRow(PostgresLayout.claimId(user, slot), user, slot, code, code);
          },
          campaign.value());
    }

    @Override
    public long pages() {
      return snapshot.fetches();
    }
  }
}
