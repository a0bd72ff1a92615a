package flashclaim.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.Api;
import flashclaim.testing.Claimer;
import flashclaim.testing.PostgresBackend;
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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A claim keeps to the indexes however stale the tables' statistics are. The claim functions'
 * statements are planned once per connection and the plan is kept; the hazard is a first sale on a
 * new database, where {@code claims} was analyzed while (nearly) empty: a plan that scans the whole
 * table stays in use while the table grows by thousands of rows a second, until autovacuum analyzes
 * it again. Here both tables are analyzed just before the sale, {@code claims} empty; two instances
 * then claim concurrently through HTTP, and PostgreSQL's own counters must show no sequential scan of
 * {@code claims} or {@code coupons} by the claims, with every count exact.
 */
class PostgresClaimPlansTest {
  private static final int COUPONS = 300;
  private static final int USERS = 400;
  private static final int INSTANCES = 2;
  private static final int THREADS_PER_INSTANCE = 6;

  private final StoreBackend backend = new PostgresBackend();

  @Test
  void claimsUseTheIndexesWhenTheClaimsTableWasAnalyzedEmpty() throws Exception {
    String id = "pg-plans";
    try (ServiceInstance admin = ServiceInstance.start(backend.properties())) {
      backend.reset(); // once the instance's migrations made the schema
      Api.createCampaign(admin.url(), id, 1, COUPONS);
    }
    try (Connection db = TestPostgres.connect();
        Statement analyze = db.createStatement()) {
      analyze.execute("ANALYZE claims");
      analyze.execute("ANALYZE coupons");
    }
    Map<String, Long> before = settledScans();

    List<ServiceInstance> instances = new ArrayList<>();
    Map<String, String> codes = new ConcurrentHashMap<>();
    AtomicInteger soldOut = new AtomicInteger();
    AtomicInteger nextUser = new AtomicInteger();
    ExecutorService clients = Executors.newFixedThreadPool(INSTANCES * THREADS_PER_INSTANCE);
    try {
      for (int i = 0; i < INSTANCES; i++) {
        instances.add(ServiceInstance.start(backend.properties()));
      }
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < INSTANCES * THREADS_PER_INSTANCE; t++) {
        URI instance = instances.get(t % INSTANCES).url();
        done.add(
            clients.submit(
                () -> {
                  int u;
                  while ((u = nextUser.getAndIncrement()) < USERS) {
                    Claimer.Result result = Claimer.claimUntilFinal(instance, id, "plans-" + u);
                    if (result.status() == 201) {
                      codes.put(result.user(), result.code());
                    } else if (result.status() == 410) {
                      soldOut.incrementAndGet();
                    } else {
                      throw new AssertionError("unexpected answer " + result.response());
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      clients.shutdownNow();
      for (ServiceInstance instance : instances) {
        instance.close(); // a backend reports its last counters when its connection ends
      }
    }
    Map<String, Long> after = settledScans();

    assertThat(codes).hasSize(COUPONS);
    assertThat(codes.values()).doesNotHaveDuplicates();
    assertThat(soldOut.get()).isEqualTo(USERS - COUPONS);
    assertThat(backend.claims(id)).hasSize(COUPONS);
    String counters = "scans before " + before + ", after " + after;
    assertThat(after.get("claims seq") - before.get("claims seq"))
        .as("sequential scans of claims; " + counters)
        .isZero();
    assertThat(after.get("coupons seq") - before.get("coupons seq"))
        .as("sequential scans of coupons; " + counters)
        .isZero();
    assertThat(after.get("claims idx") - before.get("claims idx"))
        .as("index scans of claims (one a coupon won at least); " + counters)
        .isGreaterThanOrEqualTo(COUPONS);
  }

  /**
   * The scan counters of both tables once they stop moving: backends send their counters to the
   * statistics collector asynchronously, so a read right after the work may miss some.
   */
  private static Map<String, Long> settledScans() throws Exception {
    Map<String, Long> last = null;
    for (int i = 0; i < 100; i++) {
      Map<String, Long> now = scans();
      if (now.equals(last)) {
        return now;
      }
      last = now;
      Thread.sleep(600); // longer than the collector's 500 ms between reports
    }
    throw new AssertionError("the statistics never settled: " + last);
  }

  private static Map<String, Long> scans() throws Exception {
    try (Connection db = TestPostgres.connect();
        Statement read = db.createStatement()) {
      read.execute("SELECT pg_stat_clear_snapshot()");
      Map<String, Long> scans = new HashMap<>();
      try (ResultSet row =
          read.executeQuery(
              "SELECT relname, seq_scan, coalesce(idx_scan, 0) FROM pg_stat_user_tables"
                  + " WHERE relname IN ('claims', 'coupons')")) {
        while (row.next()) {
          scans.put(row.getString(1) + " seq", row.getLong(2));
          scans.put(row.getString(1) + " idx", row.getLong(3));
        }
      }
      return scans;
    }
  }
}
