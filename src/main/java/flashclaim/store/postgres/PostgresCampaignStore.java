package flashclaim.store.postgres;

import flashclaim.Deadline;
import flashclaim.campaign.Campaign;
import flashclaim.campaign.CampaignChange;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CampaignPage;
import flashclaim.campaign.CampaignStore;
import flashclaim.campaign.ChangePage;
import flashclaim.campaign.PoolAdditions;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * Campaigns on PostgreSQL. The list is one query on the index {@code campaigns_newest}. A change
 * runs in one transaction that locks the campaign's row ({@code FOR UPDATE}), judges the change on
 * it, and writes the row and its {@code campaign_changes} record; concurrent changes of one
 * campaign wait for each other, and each is judged on the version the one before it left.
 */
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
                      "SELECT " + COLUMNS + " FROM campaigns WHERE id = ?",
                      id.value());
              ResultSet row = select.executeQuery()) {
            return row.next() ? Optional.of(campaignOf(row)) : Optional.empty();
          }
        });
  }

  private static final String COLUMNS =
      "id, name, per_user_limit, starts_at, ends_at, created_at, paused, version";

  private static Campaign campaignOf(ResultSet row) throws SQLException {
    return new Campaign(
        new CampaignId(row.getString("id")),
        row.getString("name"),
        row.getInt("per_user_limit"),
        PostgresCalls.instant(row, "starts_at"),
        PostgresCalls.instant(row, "ends_at"),
        PostgresCalls.instant(row, "created_at"),
        row.getBoolean("paused"),
        row.getLong("version"));
  }

  @Override
  public CampaignPage list(int limit, Optional<CampaignPage.After> after) {
    return db.call(
        "list campaigns",
        connection -> {
          try (PreparedStatement select =
                  after.isEmpty()
                      ? PostgresCalls.prepare(
                          connection,
                          "SELECT " + COLUMNS + " FROM campaigns"
                              + " ORDER BY created_at DESC, id DESC LIMIT ?",
                          limit + 1)
                      : PostgresCalls.prepare(
                          connection,
                          "SELECT " + COLUMNS + " FROM campaigns WHERE (created_at, id) < (?, ?)"
                              + " ORDER BY created_at DESC, id DESC LIMIT ?",
                          after.get().createdAt(),
                          after.get().id().value(),
                          limit + 1);
              ResultSet rows = select.executeQuery()) {
            List<Campaign> campaigns = new ArrayList<>();
            while (rows.next()) {
              campaigns.add(campaignOf(rows));
            }
            return CampaignPage.of(campaigns, limit);
          }
        });
  }

  @Override
  public Optional<Campaign> update(CampaignId id, Function<Campaign, Optional<Update>> change) {
    return db.inTransaction(
        "change a campaign",
        connection -> {
          Campaign current;
          try (PreparedStatement select =
                  PostgresCalls.prepare(
                      connection,
                      "SELECT " + COLUMNS + " FROM campaigns WHERE id = ? FOR UPDATE",
                      id.value());
              ResultSet row = select.executeQuery()) {
            if (!row.next()) {
              return Optional.empty();
            }
            current = campaignOf(row);
          }
          Optional<Update> next = change.apply(current);
          if (next.isEmpty()) {
            return Optional.of(current);
          }
          Campaign campaign = next.get().campaign();
          try (PreparedStatement update =
              PostgresCalls.prepare(
                  connection,
                  "UPDATE campaigns SET name = ?, per_user_limit = ?, starts_at = ?, ends_at = ?,"
                      + " paused = ?, version = ? WHERE id = ?",
                  campaign.name(),
                  campaign.perUserLimit(),
                  campaign.startsAt(),
                  campaign.endsAt(),
                  campaign.paused(),
                  campaign.version(),
                  id.value())) {
            update.executeUpdate();
          }
          record(connection, next.get().change());
          return Optional.of(campaign);
        });
  }

  private static void record(Connection connection, CampaignChange change) throws SQLException {
    List<String> fields = new ArrayList<>(change.after().keySet());
    try (PreparedStatement insert =
        PostgresCalls.prepare(
            connection,
            "INSERT INTO campaign_changes"
                + " (campaign_id, version, changed_by, changed_at, fields, before, after)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?)",
            change.campaignId().value(),
            change.version(),
            change.by(),
            change.at(),
            texts(connection, fields, null),
            texts(connection, fields, change.before()),
            texts(connection, fields, change.after()))) {
      insert.executeUpdate();
    }
  }

  /** The fields' values as text, or the fields themselves when {@code values} is null. */
  private static Array texts(Connection connection, List<String> fields, Map<String, Object> values)
      throws SQLException {
    Object[] texts =
        fields.stream()
            .map(f -> values == null ? f : CampaignChange.text(values.get(f)))
            .toArray();
    return connection.createArrayOf("text", texts);
  }

  @Override
  public ChangePage changes(CampaignId id, int limit, OptionalLong below) {
    return db.call(
        "list a campaign's changes",
        connection -> {
          try (PreparedStatement select =
                  PostgresCalls.prepare(
                      connection,
                      "SELECT version, changed_by, changed_at, fields, before, after"
                          + " FROM campaign_changes WHERE campaign_id = ? AND version < ?"
                          + " ORDER BY version DESC LIMIT ?",
                      id.value(),
                      below.orElse(Long.MAX_VALUE),
                      limit + 1);
              ResultSet rows = select.executeQuery()) {
            List<CampaignChange> changes = new ArrayList<>();
            while (rows.next()) {
              String[] fields = (String[]) rows.getArray("fields").getArray();
              String[] before = (String[]) rows.getArray("before").getArray();
              String[] after = (String[]) rows.getArray("after").getArray();
              Map<String, Object> was = new LinkedHashMap<>();
              Map<String, Object> is = new LinkedHashMap<>();
              for (int i = 0; i < fields.length; i++) {
                was.put(fields[i], CampaignChange.parse(fields[i], before[i]));
                is.put(fields[i], CampaignChange.parse(fields[i], after[i]));
              }
              changes.add(
                  new CampaignChange(
                      id,
                      rows.getLong("version"),
                      rows.getString("changed_by"),
                      PostgresCalls.instant(rows, "changed_at"),
                      was,
                      is));
            }
            return ChangePage.of(changes, limit);
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
