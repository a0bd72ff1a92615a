package flashclaim.store.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import flashclaim.admission.FleetBoard;
import flashclaim.audit.AuditConfig;
import flashclaim.audit.AuditStore;
import flashclaim.campaign.CampaignStore;
import flashclaim.campaign.CouponStore;
import flashclaim.claim.ClaimStore;
import flashclaim.guard.GuardStore;
import flashclaim.idempotency.IdempotencyStore;
import flashclaim.lock.LockStore;
import flashclaim.redemption.RedemptionStore;
import flashclaim.results.ResultsStore;
import flashclaim.testing.StoreClients;
import flashclaim.testing.TestPostgres;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.flywaydb.core.Flyway;

/**
 * Store clients without a service: a database of its own on the test run's PostgreSQL, migrated by
 * the service's migrations, and {@code n} connection pools on it, as {@code n} instances would
 * have, with the store adapters built on each. No application context is started. Close it when
 * done.
 */
public final class PostgresClients implements StoreClients {
  /** The service's defaults, with a patient call timeout: the 2 cores are shared. */
  static final PostgresConfig CONFIG =
      new PostgresConfig(
          null,
          EmbeddedPostgresServer.USER,
          "",
          8,
          Duration.ofSeconds(10),
          Duration.ofSeconds(30),
          Duration.ofMillis(500),
          null,
          Duration.ofMillis(500),
          32,
          4,
          Duration.ofMinutes(1),
          500,
          20,
          2000,
          2,
          0,
          Duration.ofSeconds(60));

  /** {@link #CONFIG} with another call timeout (the session's {@code statement_timeout}). */
  static PostgresConfig withCallTimeout(Duration callTimeout) {
    PostgresConfig c = CONFIG;
    return new PostgresConfig(
        c.url(), c.user(), c.password(), c.poolSize(), c.connectionTimeout(), callTimeout,
        c.lockTimeout(), Duration.ofSeconds(30), c.cancelGrace(), c.claimBatchSize(),
        c.claimCalls(), c.cleanupInterval(), c.cleanupBatchSize(), c.cleanupMaxBatches(),
        c.seedBatchSize(), c.seedParallelism(), c.embeddedPort(), c.embeddedStartTimeout());
  }

  private final String url;
  private final List<HikariDataSource> pools = new ArrayList<>();
  private final List<PostgresCalls> calls = new ArrayList<>();
  private final Map<String, Object> adapters = new HashMap<>();

  /**
   * Creates the database {@code database} afresh (dropping an earlier one of that name), migrates
   * it and opens {@code n} pools on it.
   */
  public static PostgresClients fresh(String database, int n) {
    return new PostgresClients(migrated(TestPostgres.freshDatabase(database)), n);
  }

  private PostgresClients(String url, int n) {
    this.url = url;
    for (int i = 0; i < n; i++) {
      HikariConfig hikari = PostgresFactory.poolConfig(CONFIG, url); // the service's settings
      hikari.setPoolName("test-client-" + i);
      HikariDataSource pool = new HikariDataSource(hikari);
      pools.add(pool);
      try {
        calls.add(new PostgresCalls(pool, CONFIG));
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** {@code n} pools on a database that is migrated already, at {@code url}. */
  public static PostgresClients attach(String url, int n) {
    return new PostgresClients(url, n);
  }

  private static String migrated(String url) {
    Flyway.configure()
        .dataSource(url, CONFIG.user(), CONFIG.password())
        .locations("classpath:db/migration/postgres")
        .load()
        .migrate();
    return url;
  }

  @Override
  public String store() {
    return "postgres";
  }

  /** The JDBC URL of the clients' database. */
  @Override
  public String location() {
    return url;
  }

  /** Client {@code i}'s pool, modulo the number of clients. */
  public HikariDataSource pool(int i) {
    return pools.get(Math.floorMod(i, pools.size()));
  }

  @Override
  public StoreClients more(int n) {
    return attach(url, n);
  }

  @Override
  public int size() {
    return pools.size();
  }

  @Override
  public LockStore lockStore(int i) {
    return adapter(LockStore.class, i, PostgresLockStore::new);
  }

  @Override
  public GuardStore guardStore(int i) {
    return adapter(GuardStore.class, i, PostgresGuardStore::new);
  }

  @Override
  public IdempotencyStore idempotencyStore(int i) {
    return adapter(IdempotencyStore.class, i, PostgresIdempotencyStore::new);
  }

  @Override
  public RedemptionStore redemptionStore(int i) {
    return adapter(RedemptionStore.class, i, PostgresRedemptionStore::new);
  }

  @Override
  public FleetBoard fleetBoard(int i) {
    return adapter(FleetBoard.class, i, PostgresFleetBoard::new);
  }

  @Override
  public CampaignStore campaignStore(int i) {
    return adapter(CampaignStore.class, i, PostgresCampaignStore::new);
  }

  @Override
  public CouponStore couponStore(int i) {
    return adapter(CouponStore.class, i, db -> new PostgresCouponStore(db, CONFIG));
  }

  @Override
  public AuditStore auditStore(int i, int pageSize) {
    AuditConfig audit = auditConfig(pageSize);
    return adapter(
        AuditStore.class, "/pages-of-" + pageSize, i, db -> new PostgresAuditStore(db, audit));
  }

  @Override
  public ResultsStore resultsStore(int i, int pageSize) {
    AuditConfig audit = auditConfig(pageSize);
    return adapter(
        ResultsStore.class, "/pages-of-" + pageSize, i, db -> new PostgresResultsStore(db, audit));
  }

  /** The audit's settings (which the export reads with too), with this fetch size. */
  private static AuditConfig auditConfig(int fetchSize) {
    return new AuditConfig(100_000, fetchSize, Duration.ofMinutes(1), Duration.ofMinutes(10));
  }

  @Override
  public ClaimStore claimStore(int i) {
    return adapter(
        ClaimStore.class,
        i,
        db -> new PostgresClaimStore(db, CONFIG, Clock.systemUTC(), new ClaimCallCounters()));
  }

  private <T> T adapter(Class<T> port, int i, Function<PostgresCalls, T> create) {
    return adapter(port, "", i, create);
  }

  private synchronized <T> T adapter(
      Class<T> port, String variant, int i, Function<PostgresCalls, T> create) {
    int client = Math.floorMod(i, calls.size());
    return port.cast(
        adapters.computeIfAbsent(
            port.getSimpleName() + variant + "/" + client, k -> create.apply(calls.get(client))));
  }

  @Override
  public void close() {
    pools.forEach(HikariDataSource::close);
  }
}
