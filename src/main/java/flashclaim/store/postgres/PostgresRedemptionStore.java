package flashclaim.store.postgres;

import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CouponCode;
import flashclaim.redemption.OrderId;
import flashclaim.redemption.RedeemableCoupon;
import flashclaim.redemption.RedemptionState;
import flashclaim.redemption.RedemptionStore;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Redemption columns of the coupon rows. A coupon's version is its row's {@code xmin}, the id of
 * the transaction that wrote the row as it is now: any update (a claim, a redemption) changes it,
 * so a transition conditional on it is written only if nothing changed the coupon since it was
 * read.
 */
@Singleton
@Requires(bean = PostgresCalls.class)
final class PostgresRedemptionStore implements RedemptionStore {
  private final PostgresCalls db;

  PostgresRedemptionStore(PostgresCalls db) {
    this.db = db;
  }

  @Override
  public Optional<RedeemableCoupon> find(CampaignId campaign, CouponCode code) {
    return db.call(
        "read a coupon",
        connection -> {
          try (PreparedStatement select =
                  PostgresCalls.prepare(
                      connection,
                      "SELECT assigned_to, redemption_state, order_id, xmin::text AS version"
                          + " FROM coupons WHERE campaign_id = ? AND code = ?",
                      campaign.value(),
                      code.value());
              ResultSet row = select.executeQuery()) {
            if (!row.next()) {
              return Optional.<RedeemableCoupon>empty();
            }
            String order = row.getString("order_id");
            return Optional.of(
                new RedeemableCoupon(
                    campaign,
                    code,
                    stateOf(row.getString("assigned_to"), row.getString("redemption_state")),
                    order == null ? null : new OrderId(order),
                    row.getString("version")));
          }
        });
  }

  @Override
  public List<CampaignId> campaignsWithCode(CouponCode code, int limit) {
    return db.call(
        "look up a coupon code",
        connection -> {
          try (PreparedStatement select =
                  PostgresCalls.prepare(
                      connection,
                      "SELECT campaign_id FROM coupons WHERE code = ? LIMIT ?",
                      code.value(),
                      limit);
              ResultSet row = select.executeQuery()) {
            List<CampaignId> campaigns = new ArrayList<>();
            while (row.next()) {
              campaigns.add(new CampaignId(row.getString(1)));
            }
            return campaigns;
          }
        });
  }

  @Override
  public Optional<RedeemableCoupon> transition(
      RedeemableCoupon seen, RedemptionState next, OrderId order, Instant at) {
    boolean redeemed = next == RedemptionState.REDEEMED;
    return db.call(
        "change a coupon's redemption",
        connection -> {
          try (PreparedStatement update =
                  PostgresCalls.prepare(
                      connection,
                      "UPDATE coupons SET redemption_state = ?, order_id = ?,"
                          + " redeemed_at = CASE WHEN ? THEN ? ELSE redeemed_at END,"
                          + " cancelled_at = CASE WHEN ? THEN NULL ELSE ? END"
                          + " WHERE campaign_id = ? AND code = ? AND xmin = ?::text::xid"
                          + " RETURNING xmin::text",
                      next.wireName(),
                      order.value(),
                      redeemed,
                      at,
                      redeemed,
                      at,
                      seen.campaignId().value(),
                      seen.code().value(),
                      seen.version());
              ResultSet row = update.executeQuery()) {
            return row.next()
                ? Optional.of(seen.after(next, order, row.getString(1)))
                : Optional.<RedeemableCoupon>empty();
          }
        });
  }

  private static RedemptionState stateOf(String holder, String redemption) {
    if (holder == null) {
      return RedemptionState.UNASSIGNED;
    }
    return RedemptionState.REDEEMED.wireName().equals(redemption)
        ? RedemptionState.REDEEMED
        : RedemptionState.ASSIGNED;
  }
}
