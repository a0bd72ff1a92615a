package flashclaim.store.postgres;

import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CouponCode;
import flashclaim.campaign.CouponStore;
import flashclaim.campaign.SeedingConfig;
import flashclaim.campaign.Stock;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * Seeding and stock, on PostgreSQL. Seeding inserts the codes as arrays,
 * {@code batchSize} per statement, skipping codes that exist ({@code ON CONFLICT DO NOTHING}); each
 * batch commits on its own, so a repeated request adds what an interrupted one did not. The same
 * statement adds the number of inserted codes to the campaign's {@code coupons_added}, so the
 * count and the coupons become visible at one commit (the sold-out fast path relies on it).
 */
@Singleton
@Requires(bean = PostgresCalls.class)
final class PostgresCouponStore implements CouponStore {

  private final PostgresCalls db;
  private final SeedingConfig seeding;

  PostgresCouponStore(PostgresCalls db, SeedingConfig seeding) {
    this.db = db;
    this.seeding = seeding;
  }

  @Override
  public AddResult add(CampaignId campaign, List<CouponCode> codes) {
    String[] values = codes.stream().map(CouponCode::value).toArray(String[]::new);
    int batch = Math.max(1, seeding.batchSize());
    long added =
        db.call(
            "add coupons",
            connection -> {
              long inserted = 0;
              for (int from = 0; from < values.length; from += batch) {
                String[] chunk =
                    java.util.Arrays.copyOfRange(values, from, Math.min(values.length, from + batch));
                inserted += insert(connection, campaign, chunk);
              }
              return inserted;
            });
    return new AddResult(added, codes.size() - added);
  }

  /**
   * Inserts the codes that are new and counts them into {@code coupons_added}, in one statement;
   * a batch that adds nothing leaves the campaign row untouched.
   */
  private static long insert(Connection connection, CampaignId campaign, String[] codes)
      throws SQLException {
    Array array = connection.createArrayOf("text", codes);
    try (PreparedStatement insert =
            PostgresCalls.prepare(
                connection,
                "WITH added AS ("
                    + "  INSERT INTO coupons (campaign_id, code)"
                    + "  SELECT ?, code FROM unnest(?::text[]) AS code"
                    + "  ON CONFLICT (campaign_id, code) DO NOTHING RETURNING 1),"
                    + " n AS (SELECT count(*) AS n FROM added),"
                    + " counted AS ("
                    + "  UPDATE campaigns SET coupons_added = coupons_added + n.n FROM n"
                    + "  WHERE id = ? AND n.n > 0 RETURNING 1)"
                    + " SELECT n FROM n",
                campaign.value(),
                array,
                campaign.value());
        ResultSet row = insert.executeQuery()) {
      row.next();
      return row.getLong(1);
    } finally {
      array.free();
    }
  }

  @Override
  public Stock stock(CampaignId campaign) {
    return db.call(
        "count coupons",
        connection -> {
          try (PreparedStatement count =
                  PostgresCalls.prepare(
                      connection,
                      "SELECT count(*), count(assigned_to) FROM coupons WHERE campaign_id = ?",
                      campaign.value());
              ResultSet row = count.executeQuery()) {
            row.next();
            return new Stock(row.getLong(1), row.getLong(2));
          }
        });
  }
}
