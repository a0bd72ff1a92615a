package flashclaim.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.PostgresBackend;
import flashclaim.testing.Sale;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.TestPostgres;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/**
 * A database that holds a campaign mid-sale when migration V7 (the coupon pool) runs: every coupon
 * still unassigned then is handed out afterwards, through two instances at once, each exactly once,
 * and none that was assigned before is handed out again. The database is one of its own on the test
 * run's server, migrated to V6 by Flyway and filled as V6 instances would have left it.
 */
class PostgresPoolUpgradeTest {
  private static final String CAMPAIGN = "upgrade";
  private static final int COUPONS = 300;
  private static final int ASSIGNED_BEFORE = 100;
  private static final int USERS = 250;

  @Test
  void couponsUnassignedBeforeTheUpgradeAreHandedOutOnceAfterIt() throws Exception {
    String url = TestPostgres.freshDatabase("flashclaim_upgrade");
    Flyway.configure()
        .dataSource(url, EmbeddedPostgresServer.USER, "")
        .locations("classpath:db/migration/postgres")
        .target("6")
        .load()
        .migrate();
    try (Connection db = DriverManager.getConnection(url, EmbeddedPostgresServer.USER, "");
        Statement fill = db.createStatement()) {
      fill.execute(
          "INSERT INTO campaigns (id, name, per_user_limit, created_at, coupons_added)"
              + " VALUES ('" + CAMPAIGN + "', 'upgrade', 1, now(), " + COUPONS + ")");
      fill.execute(
          "INSERT INTO coupons (campaign_id, code) SELECT '" + CAMPAIGN + "', 'UP' || g"
              + " FROM generate_series(1, " + COUPONS + ") g");
      fill.execute(
          "UPDATE coupons SET assigned_to = 'earlier-' || substr(code, 3), claim_slot = 0,"
              + " assigned_at = now() WHERE substr(code, 3)::int <= " + ASSIGNED_BEFORE);
      fill.execute(
          "INSERT INTO claims (campaign_id, user_key, slot, code, claimed_at)"
              + " SELECT campaign_id, assigned_to, 0, code, assigned_at FROM coupons"
              + " WHERE assigned_to IS NOT NULL");
    }

    Map<String, Object> properties = new HashMap<>(new PostgresBackend().properties());
    properties.put("flashclaim.postgres.url", url);
    List<ServiceInstance> instances = new ArrayList<>();
    Sale sale;
    try {
      List<URI> urls = new ArrayList<>();
      for (int i = 0; i < 2; i++) { // the first one migrates
        instances.add(ServiceInstance.start(properties));
        urls.add(instances.get(i).url());
      }
      sale = Sale.run(urls, 6, CAMPAIGN, "after-", USERS);
    } finally {
      instances.forEach(ServiceInstance::close);
    }

    int left = COUPONS - ASSIGNED_BEFORE;
    assertThat(sale.codes()).hasSize(left);
    assertThat(sale.codes().values())
        .doesNotHaveDuplicates()
        .allSatisfy(code -> assertThat(code.substring(2)).asInt().isGreaterThan(ASSIGNED_BEFORE));
    assertThat(sale.soldOut()).isEqualTo(USERS - left);
    try (Connection db = DriverManager.getConnection(url, EmbeddedPostgresServer.USER, "");
        Statement read = db.createStatement();
        ResultSet row =
            read.executeQuery(
                "SELECT (SELECT count(*) FROM coupons WHERE assigned_to IS NOT NULL),"
                    + " (SELECT count(*) FROM claims),"
                    + " (SELECT count(*) FROM claims c JOIN coupons k"
                    + "   ON k.campaign_id = c.campaign_id AND k.code = c.code"
                    + "   AND k.assigned_to = c.user_key AND k.claim_slot = c.slot),"
                    + " (SELECT count(*) FROM coupon_pool)")) {
      row.next();
      assertThat(row.getLong(1)).as("coupons assigned").isEqualTo(COUPONS);
      assertThat(row.getLong(2)).as("claim records").isEqualTo(COUPONS);
      assertThat(row.getLong(3)).as("claim records that match their coupon").isEqualTo(COUPONS);
      assertThat(row.getLong(4)).as("rows left in the pool").isZero();
    }
  }
}
