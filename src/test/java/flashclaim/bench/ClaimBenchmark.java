package flashclaim.bench;

import com.google.cloud.firestore.Firestore;
import com.zaxxer.hikari.HikariDataSource;
import flashclaim.StoreException;
import flashclaim.audit.AuditReport;
import flashclaim.audit.AuditService;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CampaignService;
import flashclaim.campaign.CodePrefix;
import flashclaim.claim.ClaimOutcome;
import flashclaim.claim.ClaimService;
import flashclaim.claim.UserId;
import flashclaim.store.firestore.ContentionCounters;
import flashclaim.store.firestore.FirestoreClaimStoreFactory;
import flashclaim.store.firestore.OldestFirstClaimStrategy;
import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.PostgresBackend;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.TestEmulator;
import flashclaim.testing.TestPostgres;
import flashclaim.testing.Tokens;
import flashclaim.testing.Webhooks;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.ApplicationContext;
import io.micronaut.serde.ObjectMapper;
import io.micronaut.serde.annotation.Serdeable;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;
import javax.sql.DataSource;

/**
 * W1 through the claim engine in-process (no HTTP), for every Firestore claim strategy and for
 * PostgreSQL side by side in one run ({@code --stores=firestore,postgres}), each after its store's
 * ceiling: uncontended single-document writes to the emulator, single-row inserts to PostgreSQL, at
 * the same concurrency. Prints a table and writes it as Markdown and JSON under {@code
 * target/benchmark/}. Exits non-zero when a strategy assigned a coupon twice, or when the default
 * strategy or PostgreSQL left coupons that users wanted, answered a false sold-out, or did not
 * finish.
 *
 * <p>{@code --pool-sizes=5000,50000,500000} repeats each run on pools of those sizes (seeded in
 * calls of 100,000 codes), so that the cost of a claim by pool size shows: claims per second,
 * latencies, and store reads per claim ({@link ReadCounter} on Firestore, table statistics on
 * PostgreSQL). On the emulator every query also scans its whole collection; that estimate is a
 * column of its own.
 *
 * <p>Claims per second count the assigned coupons over the time the pool took to drain (start to
 * the last assignment); the sold-out answers that follow are in the wall time.
 *
 * <p>Closed model: {@code concurrency} workers take the next user and claim until a final answer
 * (a 503 {@code busy} is retried after {@code retryPauseMillis}), so claims/s measures what the
 * engine can do, not an arrival rate. Each strategy gets at most {@code capSeconds}; one that does
 * not finish reports partial figures.
 */
public final class ClaimBenchmark {
  private static final String DEFAULT_STRATEGY = "optimistic";
  private static final String POSTGRES = "postgres";
  /** The service's Firestore strategies and the benchmark's own baseline. */
  private static final List<String> STRATEGIES =
      Stream.concat(
              FirestoreClaimStoreFactory.STRATEGIES.stream(),
              Stream.of(OldestFirstClaimStrategy.NAME))
          .toList();

  private ClaimBenchmark() {}

  /** The benchmark's parameters, from {@code --name=value} arguments. */
  record Options(
      int users,
      int coupons,
      int concurrency,
      int capSeconds,
      int ceilingSeconds,
      int retryPauseMillis,
      int warmUpClaims,
      List<String> strategies,
      List<String> stores,
      List<Integer> poolSizes,
      Path out,
      String command) {

    /** A small unrecorded round with the same workers. */
    Options warmUp() {
      return new Options(
          Math.min(users, 2_000), Math.min(coupons, 1_000), concurrency, 30, 5, retryPauseMillis,
          0, strategies, stores, poolSizes, out, command);
    }

    /** The same run on a pool of {@code size} coupons. */
    Options withPool(int size) {
      return new Options(
          users, size, concurrency, capSeconds, ceilingSeconds, retryPauseMillis, warmUpClaims,
          strategies, stores, poolSizes, out, command);
    }

    static Options parse(String[] args) {
      Map<String, String> given = BenchArguments.parse(args);
      return new Options(
          Integer.parseInt(given.getOrDefault("users", "10000")),
          Integer.parseInt(given.getOrDefault("coupons", "5000")),
          Integer.parseInt(given.getOrDefault("concurrency", "32")),
          Integer.parseInt(given.getOrDefault("cap-seconds", "120")),
          Integer.parseInt(given.getOrDefault("ceiling-seconds", "10")),
          Integer.parseInt(given.getOrDefault("retry-pause-ms", "5")),
          Integer.parseInt(given.getOrDefault("warm-up-claims", "1000")),
          List.of(
              given
                  .getOrDefault("strategies", String.join(",", STRATEGIES))
                  .split(",")),
          List.of(given.getOrDefault("stores", "firestore,postgres").split(",")),
          Arrays.stream(given.getOrDefault("pool-sizes", given.getOrDefault("coupons", "5000")).split(","))
              .map(Integer::parseInt)
              .toList(),
          Path.of(given.getOrDefault("out", "target/benchmark")),
          "bin/benchmark " + String.join(" ", args));
    }
  }

  /**
   * One row of the table. Latencies are of single engine calls, in milliseconds; {@code ofCeiling}
   * is claims per second divided by the ceiling measured just before.
   */
  @Serdeable
  record Row(
      String run,
      int pool,
      double perSecond,
      double ofCeiling,
      double p50Ms,
      double p95Ms,
      double p99Ms,
      double retriedOrAbortedPerClaim,
      long assigned,
      long soldOutAnswers,
      long busyAnswers,
      long storeErrors,
      long duplicates,
      long falseSoldOuts,
      long couponsLeft,
      double wallSeconds,
      boolean finished,
      boolean auditOk,
      int peakThreads,
      long peakHeapMb,
      double readsPerClaim,
      double queriesPerClaim,
      double emulatorScannedPerClaim,
      double seedSeconds) {}

  public static void main(String[] args) throws Exception {
    Options options = Options.parse(args);
    System.out.printf(
        "W1 in-process: %d users, pools of %s coupons, %d workers, cap %d s per run; stores %s%n",
        options.users(), options.poolSizes(), options.concurrency(), options.capSeconds(),
        options.stores());
    // The machine is noisy, so the ceiling is measured right before each run, and each run is
    // compared with the ceiling of its own moment.
    List<Row> rows = new ArrayList<>();
    if (options.stores().contains("firestore")) {
      System.out.println("Firestore emulator at " + TestEmulator.host());
      warmUp(options);
      for (int pool : options.poolSizes()) {
        for (String strategy : options.strategies()) {
          Row ceiling = ceiling(options.withPool(pool), strategy);
          print(ceiling);
          Row row =
              runW1(strategy, firestore(strategy), new FirestoreBackend(), options.withPool(pool), ceiling.perSecond());
          print(row);
          rows.add(ceiling);
          rows.add(row);
        }
      }
    }
    if (options.stores().contains("postgres")) {
      System.out.println("PostgreSQL (embedded) at " + TestPostgres.url());
      StoreBackend postgres = new PostgresBackend();
      Options small = options.warmUp();
      System.out.println("Warming up (not recorded)...");
      postgresCeiling(small, postgres);
      runW1(POSTGRES, postgresProperties(postgres), postgres, small, 1);
      for (int pool : options.poolSizes()) {
        Row ceiling = postgresCeiling(options.withPool(pool), postgres);
        print(ceiling);
        Row row =
            runW1(POSTGRES, postgresProperties(postgres), postgres, options.withPool(pool), ceiling.perSecond());
        print(row);
        rows.add(ceiling);
        rows.add(row);
      }
    }
    String markdown = markdown(options, rows);
    System.out.println();
    System.out.println(markdown);
    Files.createDirectories(options.out());
    Files.writeString(options.out().resolve("claim-benchmark.md"), markdown);
    Files.writeString(
        options.out().resolve("claim-benchmark.json"), ObjectMapper.getDefault().writeValueAsString(rows));
    System.out.println("Written: " + options.out().resolve("claim-benchmark.md") + " and .json");

    boolean ok = true;
    for (Row row : rows) {
      if (row.duplicates() > 0) {
        System.out.println("FAIL: " + row.run() + " assigned a coupon twice");
        ok = false;
      }
      if ((row.run().equals(DEFAULT_STRATEGY) || row.run().equals(POSTGRES))
          && (!row.finished()
              || row.couponsLeft() != Math.max(0, row.pool() - options.users())
              || row.falseSoldOuts() > 0
              || !row.auditOk())) {
        System.out.println("FAIL: " + row.run() + " did not finish W1 exactly");
        ok = false;
      }
    }
    System.exit(ok ? 0 : 1);
  }

  /**
   * A short unrecorded round of writes and claims first: both JVMs (this one and the emulator's)
   * start cold, and the first measured phase would otherwise pay for their JIT warm-up.
   */
  private static void warmUp(Options options) throws Exception {
    Options small = options.warmUp();
    System.out.println("Warming up (not recorded)...");
    ceiling(small, "warm-up");
    runW1(DEFAULT_STRATEGY, firestore(DEFAULT_STRATEGY), new FirestoreBackend(), small, 1);
  }

  /**
   * PostgreSQL's ceiling: uncontended single-row inserts, each its own transaction, at the
   * benchmark's concurrency, through the service's own pool.
   */
  private static Row postgresCeiling(Options options, StoreBackend backend) throws Exception {
    try (ApplicationContext context = ApplicationContext.run(postgresProperties(backend))) {
      backend.reset();
      DataSource db = context.getBean(DataSource.class);
      try (Connection c = db.getConnection();
          Statement create = c.createStatement()) {
        create.execute("DROP TABLE IF EXISTS bench_ceiling");
        create.execute("CREATE TABLE bench_ceiling (worker integer, n integer)");
      }
      Recorder recorder = new Recorder(options.concurrency());
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(options.ceilingSeconds());
      LongAdder writes = new LongAdder();
      long started = System.nanoTime();
      recorder.run(
          worker -> {
            int n = 0;
            while (System.nanoTime() < end) {
              long t0 = System.nanoTime();
              try (Connection c = db.getConnection();
                  PreparedStatement insert =
                      c.prepareStatement("INSERT INTO bench_ceiling (worker, n) VALUES (?, ?)")) {
                insert.setInt(1, worker);
                insert.setInt(2, n++);
                insert.executeUpdate();
              }
              recorder.latency(worker, System.nanoTime() - t0);
              writes.increment();
            }
          });
      double wall = (System.nanoTime() - started) / 1e9;
      double[] p = recorder.percentiles();
      try (Connection c = db.getConnection();
          Statement drop = c.createStatement()) {
        drop.execute("DROP TABLE bench_ceiling");
      }
      return new Row(
          "ceiling before postgres (single-row inserts)", options.coupons(),
          writes.sum() / wall, 1.0, p[0], p[1], p[2], 0, 0, 0, 0, 0, 0, 0, 0, wall, true, true,
          recorder.peakThreads(), recorder.peakHeapMb(), 0, 0, 0, 0);
    }
  }

  /** Uncontended single-document writes at the benchmark's concurrency: the emulator's ceiling. */
  private static Row ceiling(Options options, String before) throws Exception {
    TestEmulator.reset();
    try (ApplicationContext context = ApplicationContext.run(firestore(DEFAULT_STRATEGY))) {
      Firestore db = context.getBean(Firestore.class);
      Recorder recorder = new Recorder(options.concurrency());
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(options.ceilingSeconds());
      LongAdder writes = new LongAdder();
      long started = System.nanoTime();
      recorder.run(
          worker -> {
            int n = 0;
            while (System.nanoTime() < end) {
              long t0 = System.nanoTime();
              db.collection("ceiling")
                  .document()
                  .set(Map.of("worker", worker, "n", n++))
                  .get(10, TimeUnit.SECONDS);
              recorder.latency(worker, System.nanoTime() - t0);
              writes.increment();
            }
          });
      double wall = (System.nanoTime() - started) / 1e9;
      double[] p = recorder.percentiles();
      return new Row(
          "ceiling before " + before + " (single-document writes)", options.coupons(),
          writes.sum() / wall, 1.0, p[0], p[1], p[2], 0, 0, 0, 0, 0, 0, 0, 0, wall, true, true,
          recorder.peakThreads(), recorder.peakHeapMb(), 0, 0, 0, 0);
    }
  }

  /** W1 on a fresh store through one application context with {@code properties}. */
  private static Row runW1(
      String strategy,
      Map<String, Object> properties,
      StoreBackend store,
      Options options,
      double ceiling)
      throws Exception {
    try (ApplicationContext context = ApplicationContext.run(properties)) {
      store.reset(); // once the context runs: its migrations create the PostgreSQL schema
      CampaignService campaigns = context.getBean(CampaignService.class);
      ClaimService claims = context.getBean(ClaimService.class);
      // Lost races and aborts are counted by the Firestore strategies only.
      ContentionCounters counters =
          context.findBean(ContentionCounters.class).orElseGet(ContentionCounters::new);
      CampaignId campaign = new CampaignId("w1-" + strategy);
      warmUpContext(campaigns, claims, strategy, options);
      campaigns.create(campaign, "W1 " + strategy, 1, null, null);
      double seedSeconds = seed(campaigns, campaign, options.coupons());
      ReadCounts before = ReadCounts.of(context);
      Optional<CallCounts> callsBefore = CallCounts.of(context);

      AtomicInteger nextUser = new AtomicInteger();
      LongAdder busy = new LongAdder();
      LongAdder errors = new LongAdder();
      LongAdder soldOut = new LongAdder();
      ConcurrentLinkedQueue<Instant> soldOutAt = new ConcurrentLinkedQueue<>();
      AtomicLong unfinishedUsers = new AtomicLong();
      long capEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(options.capSeconds());
      Recorder recorder = new Recorder(options.concurrency());
      long started = System.nanoTime();
      Instant startedAt = Instant.now();
      recorder.run(
          worker -> {
            int u;
            while ((u = nextUser.getAndIncrement()) < options.users()) {
              if (System.nanoTime() > capEnd) {
                unfinishedUsers.incrementAndGet();
                continue;
              }
              UserId user = new UserId("bench-" + strategy + "-" + u);
              while (true) {
                long t0 = System.nanoTime();
                ClaimOutcome outcome;
                try {
                  outcome = claims.claim(campaign, user);
                } catch (StoreException e) {
                  outcome = null;
                  errors.increment();
                }
                recorder.latency(worker, System.nanoTime() - t0);
                if (outcome instanceof ClaimOutcome.SoldOut) {
                  soldOut.increment();
                  soldOutAt.add(Instant.now());
                }
                if (outcome != null && !(outcome instanceof ClaimOutcome.Busy)) {
                  break;
                }
                busy.increment();
                if (System.nanoTime() > capEnd) {
                  unfinishedUsers.incrementAndGet();
                  break;
                }
                Thread.sleep(options.retryPauseMillis());
              }
            }
          });
      double wall = (System.nanoTime() - started) / 1e9;
      ReadCounts reads = ReadCounts.of(context).minus(before);
      Optional<CallCounts> callsAfter = CallCounts.of(context);
      if (callsAfter.isPresent() && callsBefore.isPresent()) {
        CallCounts made = callsAfter.get().minus(callsBefore.get());
        System.out.printf(
            Locale.ROOT,
            "%s: %,.0f store calls carried %,.0f claim attempts (%.2f per call)%n",
            strategy,
            made.calls(),
            made.attempts(),
            made.calls() == 0 ? 0 : made.attempts() / made.calls());
        System.out.printf(
            Locale.ROOT,
            "%s: %,d of %,d coupon updates in place (HOT, no index entry)%n",
            strategy, reads.hotUpdates(), reads.couponUpdates());
      }

      AuditReport audit = context.getBean(AuditService.class).audit(campaign).orElseThrow();
      long assigned;
      long left;
      long duplicates;
      Instant emptyAt;
      if (options.coupons() <= options.users()) {
        // The pool can run out: read it directly for the moment it did.
        List<StoreBackend.StoredCoupon> coupons = store.coupons(campaign.value());
        List<StoreBackend.StoredClaim> claimRecords = store.claims(campaign.value());
        assigned = coupons.stream().filter(StoreBackend.StoredCoupon::assigned).count();
        left = coupons.size() - assigned;
        Set<String> named = new HashSet<>();
        duplicates = claimRecords.stream().filter(c -> !named.add(c.couponId())).count();
        emptyAt =
            left > 0
                ? Instant.MAX
                : coupons.stream().map(StoreBackend.StoredCoupon::assignedAt).max(Instant::compareTo).orElseThrow();
      } else {
        // More coupons than users: the pool never runs out, so every sold-out answer is false, and
        // the counts come from the service's streamed audit (a direct read of a big pool would
        // hold it in memory and outlast the test client's timeout).
        assigned = audit.assigned();
        left = audit.coupons() - audit.assigned();
        duplicates = 0;
        emptyAt = Instant.MAX;
      }
      long falseSoldOuts = soldOutAt.stream().filter(t -> t.isBefore(emptyAt)).count();
      double[] p = recorder.percentiles();
      double retried = counters.lostRaces() + counters.aborts() + busy.sum() + errors.sum();
      // Claims per second while the pool drains: up to the last assignment when all were taken.
      double drain =
          left > 0
              ? wall
              : Math.max(1e-3, Duration.between(startedAt, emptyAt).toNanos() / 1e9);
      return new Row(
          strategy,
          options.coupons(),
          assigned / drain,
          assigned / drain / ceiling,
          p[0], p[1], p[2],
          assigned == 0 ? retried : retried / assigned,
          assigned,
          soldOut.sum(),
          busy.sum(),
          errors.sum(),
          duplicates + (audit.ok() ? 0 : audit.problemCount()),
          falseSoldOuts,
          left,
          wall,
          unfinishedUsers.get() == 0,
          audit.ok(),
          recorder.peakThreads(),
          recorder.peakHeapMb(),
          reads.reads() / (double) options.users(),
          reads.queries() / (double) options.users(),
          reads.queries() * (double) options.coupons() / options.users(),
          seedSeconds);
    }
  }

  /**
   * Claims from a campaign of its own through the run's fresh context, not recorded, so that the
   * measured run starts as on an instance that has served before: its store connections open,
   * their statements prepared and planned. Each user tries for at most 10 s in all.
   */
  private static void warmUpContext(
      CampaignService campaigns, ClaimService claims, String strategy, Options options)
      throws Exception {
    if (options.warmUpClaims() == 0) {
      return;
    }
    CampaignId warmUp = new CampaignId("warm-up-" + strategy);
    campaigns.create(warmUp, "warm-up " + strategy, 1, null, null);
    seed(campaigns, warmUp, options.warmUpClaims());
    AtomicInteger nextUser = new AtomicInteger();
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    new Recorder(options.concurrency())
        .run(
            worker -> {
              int u;
              while ((u = nextUser.getAndIncrement()) < options.warmUpClaims()
                  && System.nanoTime() < end) {
                UserId user = new UserId("warm-up-" + u);
                while (claims.claim(warmUp, user) instanceof ClaimOutcome.Busy
                    && System.nanoTime() < end) {
                  Thread.sleep(options.retryPauseMillis());
                }
              }
            });
  }

  /**
   * Seeds the pool in calls of at most {@code flashclaim.seeding.max-codes-per-request} generated
   * codes, as an operator would, and prints the time and the heap in use after the last call.
   */
  private static double seed(CampaignService campaigns, CampaignId campaign, int coupons) {
    int perCall = 100_000;
    long started = System.nanoTime();
    for (int left = coupons; left > 0; left -= perCall) {
      campaigns.generate(campaign, Math.min(perCall, left), new CodePrefix("W1-"));
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    Runtime rt = Runtime.getRuntime();
    System.out.printf(
        Locale.ROOT,
        "seeded %,d coupons in %.1f s (%,.0f per s), heap in use %d MB%n",
        coupons, seconds, coupons / seconds, (rt.totalMemory() - rt.freeMemory()) >> 20);
    return seconds;
  }

  /**
   * The claim calls of PostgreSQL so far and the attempts they carried (the meters {@code
   * flashclaim.store.claim.calls} and {@code .attempts}).
   */
  private record CallCounts(double calls, double attempts) {
    CallCounts minus(CallCounts earlier) {
      return new CallCounts(calls - earlier.calls, attempts - earlier.attempts);
    }

    /** Empty on a store without these meters. */
    static Optional<CallCounts> of(ApplicationContext context) {
      return context
          .findBean(MeterRegistry.class)
          .flatMap(
              registry -> {
                FunctionCounter calls =
                    registry.find("flashclaim.store.claim.calls").functionCounter();
                FunctionCounter attempts =
                    registry.find("flashclaim.store.claim.attempts").functionCounter();
                return calls == null || attempts == null
                    ? Optional.empty()
                    : Optional.of(new CallCounts(calls.count(), attempts.count()));
              });
    }
  }

  /**
   * Store reads so far: on Firestore, documents read as production bills them and queries sent
   * ({@link ReadCounter}); on PostgreSQL, rows read from the coupon, pool and claim tables
   * (sequential and index reads, from {@code pg_stat_user_tables}), no queries, and the updates of
   * coupons with how many of them were HOT (in place).
   */
  private record ReadCounts(long reads, long queries, long couponUpdates, long hotUpdates) {
    ReadCounts minus(ReadCounts earlier) {
      return new ReadCounts(
          reads - earlier.reads,
          queries - earlier.queries,
          couponUpdates - earlier.couponUpdates,
          hotUpdates - earlier.hotUpdates);
    }

    static ReadCounts of(ApplicationContext context) throws Exception {
      Optional<ReadCounter> firestore = context.findBean(ReadCounter.class);
      if (firestore.isPresent()) {
        return new ReadCounts(firestore.get().reads(), firestore.get().queries(), 0, 0);
      }
      DataSource dataSource = context.getBean(DataSource.class);
      flushStatistics(dataSource);
      Thread.sleep(1_000); // the collector publishes what it received with a delay
      try (Connection c = dataSource.getConnection();
          Statement read = c.createStatement()) {
        read.execute("SELECT pg_stat_clear_snapshot()");
        try (ResultSet row =
            read.executeQuery(
                "SELECT coalesce(sum(coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0)), 0),"
                    + " coalesce(sum(n_tup_upd) FILTER (WHERE relname = 'coupons'), 0),"
                    + " coalesce(sum(n_tup_hot_upd) FILTER (WHERE relname = 'coupons'), 0)"
                    + " FROM pg_stat_user_tables"
                    + " WHERE relname IN ('coupons', 'coupon_pool', 'claims')")) {
          row.next();
          return new ReadCounts(row.getLong(1), 0, row.getLong(2), row.getLong(3));
        }
      }
    }
  }

  /**
   * Makes every pooled connection's backend send its table statistics. PostgreSQL 14 sends them
   * when a transaction ends at least 500 ms after the last sending, so an idle backend keeps the
   * counts of its last claims: each connection ends a transaction after that pause.
   */
  private static void flushStatistics(DataSource dataSource) throws Exception {
    int total =
        dataSource.unwrap(HikariDataSource.class).getHikariPoolMXBean().getTotalConnections();
    List<Connection> borrowed = new ArrayList<>();
    try {
      for (int i = 0; i < total; i++) {
        borrowed.add(dataSource.getConnection());
      }
      Thread.sleep(600);
      for (Connection c : borrowed) {
        try (Statement ping = c.createStatement()) {
          ping.execute("SELECT 1");
        }
      }
    } finally {
      for (Connection c : borrowed) {
        c.close();
      }
    }
  }

  static Map<String, Object> postgresProperties(StoreBackend postgres) {
    Map<String, Object> properties = new HashMap<>(postgres.properties());
    properties.remove("flashclaim.postgres.pool-size"); // the service's default
    // The embedded server's URL is given explicitly, so the development secrets are refused.
    properties.put("flashclaim.auth.hs256-secret", Tokens.SECRET);
    properties.put("flashclaim.webhooks.secret", Webhooks.SECRET);
    properties.put("flashclaim.admission.ticket-secret", ServiceInstance.TICKET_SECRET);
    properties.put("micronaut.health.monitor.enabled", false);
    return properties;
  }

  static Map<String, Object> firestore(String strategy) {
    Map<String, Object> properties = new HashMap<>();
    properties.put("flashclaim.firestore.project-id", TestEmulator.PROJECT);
    properties.put("flashclaim.firestore.emulator-host", TestEmulator.host());
    properties.put("flashclaim.firestore.embedded", "false");
    properties.put("flashclaim.firestore.claim.strategy", strategy);
    properties.put("micronaut.health.monitor.enabled", false);
    properties.put(ReadCounter.PROPERTY, "true");
    return properties;
  }

  private static void print(Row row) {
    System.out.printf(
        Locale.ROOT,
        "%-52s pool %,9d %8.1f/s (%.2f of ceiling)  p50 %7.1f ms  p95 %7.1f ms  p99 %7.1f ms  retried %6.2f/claim"
            + "  reads %.2f/claim  queries %.3f/claim  assigned %d  dup %d  false-sold-out %d  left %d  %.1f s%s%n",
        row.run(), row.pool(), row.perSecond(), row.ofCeiling(), row.p50Ms(), row.p95Ms(), row.p99Ms(),
        row.retriedOrAbortedPerClaim(), row.readsPerClaim(), row.queriesPerClaim(), row.assigned(),
        row.duplicates(), row.falseSoldOuts(), row.couponsLeft(), row.wallSeconds(),
        row.finished() ? "" : "  (capped: partial)");
  }

  private static String markdown(Options options, List<Row> rows) {
    StringBuilder md = new StringBuilder();
    md.append(
        String.format(
            Locale.ROOT,
            "W1 in-process, %d users, pools of %s coupons, %d workers, cap %d s.%n%n"
                + "- date: %s%n- machine: %d cores, %d GiB, %s %s, Java %s%n- command: `%s`%n%n",
            options.users(), options.poolSizes(), options.concurrency(), options.capSeconds(),
            Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MINUTES),
            Runtime.getRuntime().availableProcessors(),
            ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                    .getTotalMemorySize()
                >> 30,
            System.getProperty("os.name"), System.getProperty("os.version"),
            System.getProperty("java.version"), options.command()));
    md.append(
        "| run | pool | seeding s | per s | of ceiling | p50 ms | p95 ms | p99 ms | retried or aborted per claim |"
            + " store reads per claim | queries per claim | emulator documents scanned per claim (est.) |"
            + " assigned | sold-out answers | duplicates | false sold-outs | coupons left | wall s | finished |"
            + " peak threads | peak heap MB |\n");
    md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (Row r : rows) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %.1f | %.1f | %.2f | %.1f | %.1f | %.1f | %.2f | %.2f | %.3f | %.0f | %d | %d | %d | %d | %d"
                  + " | %.1f | %s | %d | %d |%n",
              r.run(), r.pool(), r.seedSeconds(), r.perSecond(), r.ofCeiling(), r.p50Ms(), r.p95Ms(), r.p99Ms(),
              r.retriedOrAbortedPerClaim(), r.readsPerClaim(), r.queriesPerClaim(), r.emulatorScannedPerClaim(),
              r.assigned(), r.soldOutAnswers(), r.duplicates(), r.falseSoldOuts(), r.couponsLeft(),
              r.wallSeconds(), r.finished() ? "yes" : "no (capped)", r.peakThreads(), r.peakHeapMb()));
    }
    md.append(
        "\nStore reads: Firestore documents as production bills them (a query finding nothing counts one);"
            + " PostgreSQL rows read from the coupon, pool and claim tables. The emulator also scans a query's whole"
            + " collection, which production does not: the estimate is queries x pool size.\n");
    for (String run : rows.stream().map(Row::run).filter(r -> !r.startsWith("ceiling")).distinct().toList()) {
      List<Row> curve = rows.stream().filter(r -> r.run().equals(run)).toList();
      if (curve.size() > 1 && curve.get(0).perSecond() > 0) {
        StringBuilder line = new StringBuilder("Claims per second of " + run + " by pool, relative to "
            + curve.get(0).pool() + ":");
        for (Row r : curve) {
          line.append(String.format(Locale.ROOT, " %d: %.2f;", r.pool(), r.perSecond() / curve.get(0).perSecond()));
        }
        md.append(line).append('\n');
      }
    }
    Row best = rows.stream().filter(r -> r.run().equals(DEFAULT_STRATEGY)).findFirst().orElse(null);
    if (best != null) {
      md.append(
          String.format(
              Locale.ROOT,
              "%nDefault (%s): %.2f of the emulator ceiling measured just before it.%n",
              DEFAULT_STRATEGY, best.ofCeiling()));
      for (Row r : rows) {
        if (r.pool() == best.pool() && r != best && r.perSecond() > 0 && !r.run().startsWith("ceiling")) {
          md.append(
              String.format(
                  Locale.ROOT,
                  "Default vs %s: %.1fx claims per second (%.1fx relative to each one's ceiling).%n",
                  r.run(), best.perSecond() / r.perSecond(), best.ofCeiling() / r.ofCeiling()));
        }
      }
    }
    return md.toString();
  }

  /** Runs the workers and keeps their latencies, the peak thread count and the peak heap. */
  private static final class Recorder {
    private final int workers;
    private final List<List<Long>> latencies = new ArrayList<>();
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final AtomicLong peakHeap = new AtomicLong();

    Recorder(int workers) {
      this.workers = workers;
      for (int i = 0; i < workers; i++) {
        latencies.add(new ArrayList<>());
      }
    }

    interface Work {
      void run(int worker) throws Exception;
    }

    void run(Work work) throws InterruptedException {
      threads.resetPeakThreadCount();
      CountDownLatch done = new CountDownLatch(workers);
      Thread sampler =
          new Thread(
              () -> {
                Runtime rt = Runtime.getRuntime();
                while (done.getCount() > 0) {
                  peakHeap.accumulateAndGet(rt.totalMemory() - rt.freeMemory(), Math::max);
                  try {
                    Thread.sleep(100);
                  } catch (InterruptedException e) {
                    return;
                  }
                }
              });
      sampler.setDaemon(true);
      sampler.start();
      for (int i = 0; i < workers; i++) {
        int worker = i;
        Thread t =
            new Thread(
                () -> {
                  try {
                    work.run(worker);
                  } catch (Exception e) {
                    throw new IllegalStateException(e);
                  } finally {
                    done.countDown();
                  }
                },
                "bench-worker-" + i);
        t.start();
      }
      done.await();
      sampler.interrupt();
    }

    void latency(int worker, long nanos) {
      latencies.get(worker).add(nanos);
    }

    /** p50, p95, p99 in milliseconds. */
    double[] percentiles() {
      long[] all = latencies.stream().flatMap(List::stream).mapToLong(Long::longValue).toArray();
      if (all.length == 0) {
        return new double[] {0, 0, 0};
      }
      Arrays.sort(all);
      return new double[] {at(all, 0.50), at(all, 0.95), at(all, 0.99)};
    }

    private static double at(long[] sorted, double q) {
      return sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))] / 1e6;
    }

    int peakThreads() {
      return threads.getPeakThreadCount();
    }

    long peakHeapMb() {
      return peakHeap.get() / (1024 * 1024);
    }
  }
}
