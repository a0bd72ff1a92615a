package flashclaim.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.Api;
import flashclaim.testing.PostgresBackend;
import flashclaim.testing.Sale;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.TestPostgres;
import java.net.URI;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the claims cost PostgreSQL, read from its own counters after a sale through two instances.
 *
 * <p>A claim keeps to the indexes however stale the tables' statistics are. The claim functions'
 * statements are planned once per connection and the plan is kept; the hazard is a first sale on a
 * new database, where {@code claims} was analyzed while (nearly) empty: a plan that scans the whole
 * table stays in use while the table grows by thousands of rows a second, until autovacuum analyzes
 * it again. Here the tables are analyzed just before the sale, {@code claims} empty, and no claim
 * may scan {@code claims}, {@code coupons} or {@code coupon_pool} sequentially.
 *
 * <p>A claim takes its coupon with one delete from {@code coupon_pool} and one update of the coupon,
 * which is made in place (a HOT update, no index entry) whenever the coupon's page has room: no
 * index of {@code coupons} covers a column the claim sets. The counts of scans, deletes and updates
 * are exact.
 */
class PostgresClaimPlansTest {
  private static final int COUPONS = 300;
  private static final int USERS = 400;
  private static final int INSTANCES = 2;
  private static final int THREADS_PER_INSTANCE = 6;
  private static final List<String> TABLES = List.of("claims", "coupons", "coupon_pool");

  private final StoreBackend backend = new PostgresBackend();

  @Test
  void claimsReadThroughIndexesAndUpdateCouponsInPlace() throws Exception {
    String id = "pg-plans";
    try (ServiceInstance admin = ServiceInstance.start(backend.properties())) {
      backend.reset(); // once the instance's migrations made the schema
      Api.createCampaign(admin.url(), id, 1, COUPONS);
    }
    try (Connection db = TestPostgres.connect();
        Statement analyze = db.createStatement()) {
      for (String table : TABLES) {
        analyze.execute("ANALYZE " + table);
      }
    }
    Map<String, Long> before = settledCounters();

    List<ServiceInstance> instances = new ArrayList<>();
    Sale sale;
    try {
      List<URI> urls = new ArrayList<>();
      for (int i = 0; i < INSTANCES; i++) {
        instances.add(ServiceInstance.start(backend.properties()));
        urls.add(instances.get(i).url());
      }
      sale = Sale.run(urls, THREADS_PER_INSTANCE, id, "plans-", USERS);
    } finally {
      for (ServiceInstance instance : instances) {
        instance.close(); // a backend reports its last counters when its connection ends
      }
    }
    Map<String, Long> after = settledCounters();

    assertThat(sale.codes()).hasSize(COUPONS);
    assertThat(sale.codes().values()).doesNotHaveDuplicates();
    assertThat(sale.soldOut()).isEqualTo(USERS - COUPONS);
    assertThat(backend.claims(id)).hasSize(COUPONS);
    String counters = "counters before " + before + ", after " + after;
    for (String table : TABLES) {
      assertThat(after.get(table + " seq") - before.get(table + " seq"))
          .as("sequential scans of " + table + "; " + counters)
          .isZero();
    }
    assertThat(after.get("claims idx") - before.get("claims idx"))
        .as("index scans of claims (one a coupon won at least); " + counters)
        .isGreaterThanOrEqualTo(COUPONS);
    assertThat(after.get("coupon_pool del") - before.get("coupon_pool del"))
        .as("rows taken from the pool; " + counters)
        .isEqualTo(COUPONS);
    assertThat(after.get("coupons upd") - before.get("coupons upd"))
        .as("coupons updated; " + counters)
        .isEqualTo(COUPONS);
    // An update fits on its page, and so writes no index entry, unless other claims filled the
    // page first and still pin it (pruning the dead versions needs the page to itself): a small
    // pool under many claims at once has a share of non-HOT updates, a large one nearly none. An
    // index over a column the claim sets would make every update non-HOT (as before V7).
    assertThat(after.get("coupons hot") - before.get("coupons hot"))
        .as("coupons updated in place, without an index entry; " + counters)
        .isPositive();
  }

  /**
   * The counters of the tables once they stop moving: backends send their counters to the
   * statistics collector asynchronously, so a read right after the work may miss some.
   */
  private static Map<String, Long> settledCounters() throws Exception {
    Map<String, Long> last = null;
    for (int i = 0; i < 100; i++) {
      Map<String, Long> now = counters();
      if (now.equals(last)) {
        return now;
      }
      last = now;
      Thread.sleep(600); // longer than the collector's 500 ms between reports
    }
    throw new AssertionError("the statistics never settled: " + last);
  }

  private static Map<String, Long> counters() throws Exception {
    try (Connection db = TestPostgres.connect();
        Statement read = db.createStatement()) {
      read.execute("SELECT pg_stat_clear_snapshot()");
      Map<String, Long> counters = new HashMap<>();
      try (ResultSet row =
          read.executeQuery(
              "SELECT relname, seq_scan, coalesce(idx_scan, 0), n_tup_upd, n_tup_hot_upd,"
                  + " n_tup_del FROM pg_stat_user_tables"
                  + " WHERE relname IN ('claims', 'coupons', 'coupon_pool')")) {
        while (row.next()) {
          String table = row.getString(1);
          counters.put(table + " seq", row.getLong(2));
          counters.put(table + " idx", row.getLong(3));
          counters.put(table + " upd", row.getLong(4));
          counters.put(table + " hot", row.getLong(5));
          counters.put(table + " del", row.getLong(6));
        }
      }
      return counters;
    }
  }
}
