package flashclaim.store.postgres;

import flashclaim.Deadline;
import flashclaim.campaign.Campaign;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CampaignStore;
import flashclaim.campaign.PoolAdditions;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Optional;

@Singleton
@Requires(bean = PostgresCalls.class)
final class PostgresCampaignStore implements CampaignStore {
  private final PostgresCalls db;

  PostgresCampaignStore(PostgresCalls db) {
    this.db = db;
  }

  @Override
  public boolean create(Campaign campaign) {
    return db.update(
            "create a campaign",
            "INSERT INTO campaigns (id, name, per_user_limit, starts_at, ends_at, created_at)"
                + " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
            campaign.id().value(),
            campaign.name(),
            campaign.perUserLimit(),
            campaign.startsAt(),
            campaign.endsAt(),
            campaign.createdAt())
        == 1;
  }

  @Override
  public Optional<Campaign> find(CampaignId id, Deadline deadline) {
    return db.call(
        "read a campaign",
        connection -> {
          try (PreparedStatement select =
                  db.prepare(
                      connection,
                      deadline,
                      "SELECT name, per_user_limit, starts_at, ends_at, created_at"
                          + " FROM campaigns WHERE id = ?",
                      id.value());
              ResultSet row = select.executeQuery()) {
            if (!row.next()) {
              return Optional.empty();
            }
            return Optional.of(
                new Campaign(
                    id,
                    row.getString("name"),
                    row.getInt("per_user_limit"),
                    PostgresCalls.instant(row, "starts_at"),
                    PostgresCalls.instant(row, "ends_at"),
                    PostgresCalls.instant(row, "created_at")));
          }
        });
  }

  /**
   * {@code coupons_added}, which the seeding statement moves in the transaction of its inserts
   * ({@link PostgresCouponStore}): a count and its coupons become visible at one commit, so no
   * addition is ever in progress as a reader sees it.
   */
  @Override
  public Optional<PoolAdditions> couponsAdded(CampaignId id) {
    return db.call(
        "read a campaign's additions",
        connection -> {
          try (PreparedStatement select =
                  PostgresCalls.prepare(
                      connection, "SELECT coupons_added FROM campaigns WHERE id = ?", id.value());
              ResultSet row = select.executeQuery()) {
            return row.next()
                ? Optional.of(new PoolAdditions(row.getLong(1), false))
                : Optional.empty();
          }
        });
  }
}
