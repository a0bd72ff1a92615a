package flashclaim.store.firestore;

import com.google.cloud.firestore.Firestore;
import flashclaim.admission.FleetBoard;
import flashclaim.admission.FleetConfig;
import flashclaim.audit.AuditConfig;
import flashclaim.audit.AuditStore;
import flashclaim.campaign.CampaignStore;
import flashclaim.campaign.CouponStore;
import flashclaim.campaign.SeedingConfig;
import flashclaim.claim.ClaimConfig;
import flashclaim.claim.ClaimStore;
import flashclaim.guard.GuardStore;
import flashclaim.idempotency.IdempotencyStore;
import flashclaim.lock.LockStore;
import flashclaim.redemption.RedemptionStore;
import flashclaim.results.ResultsStore;
import flashclaim.testing.StoreClients;
import flashclaim.testing.TestEmulator;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.function.Function;

/**
 * Store clients without a service: {@code n} independent Firestore clients on the test emulator,
 * each with its own channel, as {@code n} instances would have, and the store adapters built on
 * each. No application context is started. Close it when done.
 */
public final class FirestoreClients implements StoreClients {
  /** A patient call timeout: the 2 cores are shared, and a slow call is not what is tested. */
  static final FirestoreConfig CONFIG =
      new FirestoreConfig(
          TestEmulator.PROJECT,
          null,
          "false",
          null,
          0,
          "512m",
          Duration.ofSeconds(60),
          Duration.ofSeconds(30));

  /**
   * The fleet board's settings: rounds of 250 ms, so that an instance's writes go round four
   * documents, as in a fleet that reacts within a quarter of a second.
   */
  static final FleetConfig FLEET =
      new FleetConfig(true, Duration.ofMillis(250), Duration.ofSeconds(3), true, Duration.ofMillis(150));

  private final String host;
  private final List<Firestore> clients = new ArrayList<>();
  private final List<Runnable> closeables = new ArrayList<>();
  private final Map<String, Object> adapters = new HashMap<>();
  private final ExecutorService probes = Executors.newFixedThreadPool(2, daemon());

  /** Opens {@code n} clients on the test emulator (starting it on first use). */
  public FirestoreClients(int n) {
    this(TestEmulator.host(), n);
  }

  /** Opens {@code n} clients on the emulator at {@code host}. */
  public FirestoreClients(String host, int n) {
    this.host = host;
    FirestoreConfig atHost =
        new FirestoreConfig(
            CONFIG.projectId(),
            host,
            CONFIG.embedded(),
            CONFIG.emulatorJar(),
            CONFIG.emulatorPort(),
            CONFIG.emulatorHeap(),
            CONFIG.emulatorStartTimeout(),
            CONFIG.callTimeout());
    for (int i = 0; i < n; i++) { // each made as the service makes its client
      clients.add(new FirestoreFactory().firestore(atHost, Optional.empty(), List.of()));
    }
  }

  /** Client {@code i} modulo the number of clients. */
  public Firestore db(int i) {
    return clients.get(Math.floorMod(i, clients.size()));
  }

  @Override
  public String store() {
    return "firestore";
  }

  @Override
  public String location() {
    return host;
  }

  @Override
  public StoreClients more(int n) {
    return new FirestoreClients(host, n);
  }

  @Override
  public int size() {
    return clients.size();
  }

  @Override
  public LockStore lockStore(int i) {
    return adapter(LockStore.class, i, db -> new FirestoreLockStore(db, CONFIG));
  }

  @Override
  public GuardStore guardStore(int i) {
    return adapter(GuardStore.class, i, db -> new FirestoreGuardStore(db, CONFIG));
  }

  @Override
  public IdempotencyStore idempotencyStore(int i) {
    return adapter(IdempotencyStore.class, i, db -> new FirestoreIdempotencyStore(db, CONFIG));
  }

  @Override
  public RedemptionStore redemptionStore(int i) {
    return adapter(RedemptionStore.class, i, db -> new FirestoreRedemptionStore(db, CONFIG));
  }

  @Override
  public FleetBoard fleetBoard(int i) {
    return adapter(FleetBoard.class, i, db -> new FirestoreFleetBoard(db, CONFIG, FLEET));
  }

  @Override
  public CampaignStore campaignStore(int i) {
    return adapter(CampaignStore.class, i, db -> new FirestoreCampaignStore(db, CONFIG));
  }

  @Override
  public CouponStore couponStore(int i) {
    return adapter(
        CouponStore.class,
        i,
        db -> {
          FirestoreCouponStore store = new FirestoreCouponStore(db, CONFIG, seeding());
          closeables.add(store::close);
          return store;
        });
  }

  @Override
  public AuditStore auditStore(int i, int pageSize) {
    ReadTimeQueries queries = readTimeQueries(i); // not inside adapter(): one map update at a time
    return adapter(
        AuditStore.class,
        "/pages-of-" + pageSize,
        i,
        db ->
            new FirestoreAuditStore(
                db,
                queries,
                auditConfig(pageSize, 1000)));
  }

  @Override
  public ResultsStore resultsStore(int i, int pageSize) {
    ReadTimeQueries queries = readTimeQueries(i); // not inside adapter(): one map update at a time
    return adapter(
        ResultsStore.class,
        "/pages-of-" + pageSize,
        i,
        db -> new FirestoreResultsStore(db, queries, auditConfig(pageSize, 1000), CONFIG));
  }

  /** The audit's settings (which the export reads with too), with these page and fetch sizes. */
  static AuditConfig auditConfig(int pageSize, int fetchSize) {
    return new AuditConfig(pageSize, fetchSize, Duration.ofMinutes(1), Duration.ofMinutes(10));
  }

  /** The reads at a read time on client {@code i}: one streaming client per Firestore client. */
  private ReadTimeQueries readTimeQueries(int i) {
    return adapter(
        ReadTimeQueries.class,
        i,
        db -> {
          ReadTimeQueries queries = new ReadTimeQueries(db, CONFIG);
          closeables.add(queries::close);
          return queries;
        });
  }

  /**
   * The service's default claim strategy on client {@code i}, with a candidate pool of its own. The
   * one place of the tests without a service that builds a Firestore claim strategy.
   */
  @Override
  public ClaimStore claimStore(int i) {
    return adapter(
        ClaimStore.class,
        i,
        db ->
            new OptimisticClaimStrategy(
                new ClaimDocuments(db, CONFIG.callTimeout()),
                claimDefaults(),
                probes,
                Clock.systemUTC(),
                new ContentionCounters()));
  }

  private <T> T adapter(Class<T> port, int i, Function<Firestore, T> create) {
    return adapter(port, "", i, create);
  }

  private synchronized <T> T adapter(
      Class<T> port, String variant, int i, Function<Firestore, T> create) {
    int client = Math.floorMod(i, clients.size());
    return port.cast(
        adapters.computeIfAbsent(
            port.getSimpleName() + variant + "/" + client, k -> create.apply(db(client))));
  }

  /** The service's default settings of the Firestore claim strategy. */
  static FirestoreClaimConfig claimDefaults() {
    return new FirestoreClaimConfig(
        OptimisticClaimStrategy.NAME, 1000, 50, 0, 2, Duration.ofSeconds(2), 1000);
  }

  static SeedingConfig seeding() {
    return new SeedingConfig(100_000, 500, 8, Duration.ofMinutes(5));
  }

  @Override
  public synchronized void close() {
    closeables.forEach(Runnable::run);
    probes.shutdownNow();
    for (Firestore client : clients) {
      client.shutdownNow();
    }
  }

  private static ThreadFactory daemon() {
    return task -> {
      Thread thread = new Thread(task, "test-probe");
      thread.setDaemon(true);
      return thread;
    };
  }
}
