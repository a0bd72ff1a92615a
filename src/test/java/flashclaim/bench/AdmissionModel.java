package flashclaim.bench;

import com.netflix.concurrency.limits.limit.FixedLimit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;
import flashclaim.RetryAfter;
import flashclaim.admission.AdmissionConfig;
import flashclaim.admission.FairAdmission;
import flashclaim.admission.FleetBoard;
import flashclaim.admission.FleetConfig;
import flashclaim.admission.FleetOrder;
import flashclaim.admission.WaitTimer;
import flashclaim.claim.SellOutForecast;
import flashclaim.testing.MovableClock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.function.Consumer;

/**
 * A flash sale against one instance's {@link FairAdmission}, in simulated time: users click at a
 * steady rate, an admitted claim holds its slot for a service time and takes a coupon while any is
 * left, a refused user comes back after the wait it was told ({@code Flashclaim-Retry-After-Ms},
 * plus up to 100 ms) with its first arrival, as W6's clients do; once the pool is empty every
 * later attempt is answered sold out at once, as the claim edge does. It prints the FIFO precision
 * (of the first {@code coupons} users to click, the share that got one), the attempts and the
 * refusals: what the admission's policy does to the order of service, without a machine's noise.
 *
 * <pre>./mvnw -q test-compile dependency:build-classpath -Dmdep.includeScope=test \
 *   -Dmdep.outputFile=target/test.classpath
 * java -cp target/test-classes:target/classes:$(cat target/test.classpath) \
 *   flashclaim.bench.AdmissionModel users=30000 rate=1000</pre>
 *
 * Arguments ({@code name=value}): users (30000), coupons (5000), rate (users/s, 1000), limit (32),
 * serviceMs (80: the limit over it is the capacity), waitMs (1900: a claim's wait for a slot, {@code
 * flashclaim.admission.max-wait} within the deadline less the reserve), maxQueued (900), precise (true: a refused user comes back after
 * the milliseconds it was told; false: after Retry-After's whole seconds, rounded up), minRetryMs
 * (1000: {@code flashclaim.admission.min-retry-after}), seed (1), maxRetries (1000), exponential (true: service times drawn from an
 * exponential distribution of that mean; false: all equal), delayMs (0: the mean of an
 * exponentially distributed wait of every attempt before the service sees it, as on cores that
 * the client, the store and the service share; a user's first arrival is stamped when its first
 * attempt is seen), appointments (true: {@code flashclaim.admission.appointments}), instances (1:
 * each with the limit; a user's attempts go round-robin over them, as behind a load balancer),
 * noShow (0: the share of refused users who give up instead of coming back), tickets (true: a
 * returning user sends their ticket back; false: each attempt counts as a new user's), slowdown
 * (1: the service time of the last instance is this many times the others'), fleet (false: each
 * instance runs {@link FleetOrder} on a board in memory, one round a second at a phase of its
 * own, the store's answer taken as instant), fleetMs (1000: the interval of those rounds; an
 * entry is stale after three), frontEnd (false: true: every attempt is stamped when it is sent, as by
 * a front end's {@code X-Request-Start} ({@code flashclaim.http.front-end-arrival-header}) before
 * the wait of delayMs: a new user's first arrival is that moment; the wait still counts from when
 * the service sees the attempt), sellOutFactor (0: new users beyond their wait are told their turn in
 * the book; above 0: no later than the pool's end forecast at that multiple of when it would end
 * at capacity, plus 1 s, and the time since the first arrival of the first user told so times
 * sellOutSpacing (2, {@code flashclaim.claim.sell-out.spacing}), as {@link SellOutForecast} tells
 * them), headroom (1.2, {@code flashclaim.admission.book-headroom}), maxTurnS (300, {@code
 * flashclaim.admission.max-turn} in seconds: a turn beyond Retry-After's 30 s travels in the
 * user's ticket, which they send back), startSlowdown (1) and startMs (0): service times this
 * many times longer for claims admitted in the sale's first startMs, as at a sale's start on a
 * busy machine, whose slow drain the book tells its first turns from; holdGraceMs (150, {@code
 * flashclaim.admission.hold-grace}; 0: off) and holdSlackMs (0, {@code hold-slack}); fleetHold (true,
 * {@code flashclaim.admission.fleet.hold-for-others}, with fleet) and fleetHoldSlackMs (150, {@code
 * fleet.hold-slack}); skewMs (0): the last instance's clock is this far ahead, and it stamps its
 * new users' first arrivals so; returnsPerSlot (4, {@code flashclaim.admission.returns-per-slot});
 * idleDrainGrowth (2, {@code flashclaim.admission.idle-drain-growth}; 1: off); earlyWhenIdle
 * (true, {@code flashclaim.admission.early-when-idle}); startSlowLast (false; true: only the
 * last instance is slower in the sale's first startMs, as one instance of a fleet that met a
 * stall); maxRetryS (30, {@code flashclaim.admission.max-retry-after} in seconds);
 * attemptCpuMs (0: off) and cores (2): every attempt, answered or refused, takes this much of
 * the cores' time, which answer attempts one after another: beyond cores / attemptCpuMs attempts
 * a second they queue unseen (delayMs is then unused), and a client whose attempt is not seen
 * within timeoutMs (10000, W6's and W8's client timeout) gives up, unanswered; maxHoldingMs (500,
 * {@code flashclaim.admission.max-holding}); probeMs (0: off): an admitted claim first takes a
 * candidate coupon from its instance's pool, as the Firestore store's default strategy does
 * ({@code CandidatePool}), and a probe of the pool takes this long (exponentially distributed of
 * that mean with exponential): at most one probe per instance at a time, started when a take leaves
 * fewer than refillBelow (50) candidates or when none is left, reading the candidates taken over
 * the last probeWindowMs (2000, {@code candidate-max-age}) and at least probeMin (100, twice
 * refill-below); claims with no candidate wait for it, holding their slots; a candidate not taken
 * within probeWindowMs of its probe's end is dropped (candidates never race another instance's,
 * and a probe takes as long whatever it reads: a lower bound on the stalls); prefill (0): the
 * candidates each instance holds when the sale starts, fresh for probeWindowMs (a pool probed just
 * before the sale opened); firstProbe (0): the least an instance's first probe reads;
 * ignoreWaited (false; true: a claim that waited for a probe is released as {@code IGNORED}, so
 * that it teaches the drain rate nothing); firstProbeMs (probeMs): the mean time of an instance's
 * first probe (at a sale's start the machine is not yet loaded).
 */
public final class AdmissionModel {
  private static final Instant T0 = Instant.parse("2026-11-25T00:00:00Z");

  private final MovableClock clock = new MovableClock(T0);
  private final PriorityQueue<Event> events = new PriorityQueue<>();
  private final Random random;
  private long sequence;

  private final int users;
  private final int coupons;
  private final double rate;
  private final long serviceNanos;
  private final long waitNanos;
  private final int maxRetries;
  private final boolean exponential;
  private final long delayNanos;
  private final boolean frontEnd;
  /** When users are told the pool runs out, as a multiple of when it would at capacity; 0: never. */
  private final double sellOutFactor;
  private final double sellOutSpacing;
  /** The first arrival of the first user told a turn beyond the forecast; null: none yet. */
  private Instant firstBeyond;
  private final long capacityNanosPerCoupon;
  /** One admission per instance; a user's attempt k goes to instance (user + k) mod their number. */
  private final FairAdmission[] admissions;

  private final double noShow;
  private final boolean tickets;
  private final double slowdown;
  private final FleetOrder[] orders;
  private final long fleetNanos;
  private final boolean precise;
  /** Service times are this many times longer for claims admitted in the sale's first startMs. */
  private final double startSlowdown;
  private final long startNanos;
  /** Whether only the last instance is slower at the start (as one instance that met a stall). */
  private final boolean startSlowLast;
  /** The last instance stamps new users' first arrivals this much later: its clock is ahead. */
  private final long skewNanos;
  /** The cores' time an attempt takes, over their number: they answer one attempt at a time. */
  private final long attemptCpuNanos;
  /** When the cores have answered every attempt sent so far. */
  private Instant coresFreeAt = T0;
  /** An attempt not seen within this long is given up by its client. */
  private final long timeoutNanos;
  private long timedOut;
  /** The turn each user's ticket carries, told beyond Retry-After; null: none. */
  private final Instant[] turns;
  private int stock;
  /** When the last coupon was taken, from the first click. */
  private long lastCouponNanos;
  private int answeredUsers;
  private final boolean[] won;
  private final long[] answeredAt;
  private long attempts;
  private long refusals;
  /** Each instance's candidate coupons; null when probeMs is 0 (claims need no candidate). */
  private final Candidates[] pools;
  private final long probeNanos;
  private final int probeMin;
  private final int refillBelow;
  private final long probeWindowNanos;
  private final int firstProbe;
  private final boolean ignoreWaited;
  private final long firstProbeNanos;

  AdmissionModel(
      int users,
      int coupons,
      double rate,
      int limit,
      long serviceMs,
      long waitMs,
      int maxQueued,
      long seed,
      int maxRetries,
      boolean exponential,
      long delayMs,
      boolean appointments,
      int instances,
      double noShow,
      boolean tickets,
      double slowdown,
      boolean fleet,
      long fleetMs,
      boolean precise,
      long minRetryMs,
      boolean frontEnd,
      double sellOutFactor,
      double sellOutSpacing,
      double headroom,
      long maxTurnS,
      double startSlowdown,
      long startMs,
      long holdGraceMs,
      long holdSlackMs,
      boolean fleetHold,
      long fleetHoldSlackMs,
      long skewMs,
      double returnsPerSlot,
      double idleDrainGrowth,
      boolean earlyWhenIdle,
      double attemptCpuMs,
      int cores,
      long timeoutMs,
      boolean startSlowLast,
      long maxRetryS,
      long maxHoldingMs,
      long probeMs,
      int probeMin,
      int refillBelow,
      long probeWindowMs,
      int prefill,
      int firstProbe,
      boolean ignoreWaited,
      long firstProbeMs) {
    this.firstProbeNanos = firstProbeMs < 0 ? probeMs * 1_000_000 : firstProbeMs * 1_000_000;
    this.firstProbe = firstProbe;
    this.ignoreWaited = ignoreWaited;
    this.probeNanos = probeMs * 1_000_000;
    this.probeMin = probeMin;
    this.refillBelow = refillBelow;
    this.probeWindowNanos = probeWindowMs * 1_000_000;
    this.pools = new Candidates[probeMs > 0 ? instances : 0];
    for (int i = 0; i < pools.length; i++) {
      pools[i] = new Candidates();
      if (prefill > 0) {
        pools[i].batches.add(new long[] {probeWindowNanos, prefill});
      }
    }
    this.startSlowLast = startSlowLast;
    this.skewNanos = skewMs * 1_000_000;
    this.attemptCpuNanos = Math.round(attemptCpuMs * 1e6 / cores);
    this.timeoutNanos = timeoutMs * 1_000_000;
    this.startSlowdown = startSlowdown;
    this.startNanos = startMs * 1_000_000;
    this.turns = new Instant[users];
    this.sellOutFactor = sellOutFactor;
    this.sellOutSpacing = sellOutSpacing;
    this.capacityNanosPerCoupon = Math.round(serviceMs * 1e6 / (limit * (double) instances));
    this.precise = precise;
    this.frontEnd = frontEnd;
    this.slowdown = slowdown;
    this.fleetNanos = fleetMs * 1_000_000;
    this.noShow = noShow;
    this.tickets = tickets;
    this.exponential = exponential;
    this.delayNanos = delayMs * 1_000_000;
    this.users = users;
    this.coupons = coupons;
    this.rate = rate;
    this.serviceNanos = serviceMs * 1_000_000;
    this.waitNanos = waitMs * 1_000_000;
    this.maxRetries = maxRetries;
    this.random = new Random(seed);
    this.stock = coupons;
    this.won = new boolean[users];
    this.answeredAt = new long[users];
    AdmissionConfig config =
        new AdmissionConfig(
            "fixed",
            limit,
            limit,
            limit,
            maxQueued,
            Duration.ofMillis(100),
            Duration.ofMillis(waitMs),
            Duration.ofSeconds(maxRetryS),
            Duration.ofSeconds(maxTurnS),
            Duration.ofMillis(minRetryMs),
            0.5,
            0.05,
            Duration.ofSeconds(1),
            headroom,
            AdmissionConfig.DEVELOPMENT_SECRET,
            Duration.ofMinutes(10),
            Duration.ofMillis(holdGraceMs),
            Duration.ofMillis(holdSlackMs),
            appointments,
            returnsPerSlot,
            idleDrainGrowth,
            earlyWhenIdle,
            Duration.ofMillis(maxHoldingMs));
    WaitTimer timer =
        (delay, action) -> {
          Event event = at(clock.instant().plus(delay), action);
          return () -> event.cancelled = true;
        };
    this.admissions = new FairAdmission[instances];
    for (int i = 0; i < instances; i++) {
      admissions[i] =
          new FairAdmission(
              config,
              SimpleLimiter.newBuilder().limit(FixedLimit.of(limit)).build(),
              clock,
              timer,
              random::nextDouble);
    }
    this.orders = new FleetOrder[fleet ? instances : 0];
    Board board = new Board();
    FleetConfig fleetConfig =
        new FleetConfig(
            true,
            Duration.ofMillis(fleetMs),
            Duration.ofMillis(3 * fleetMs),
            fleetHold,
            Duration.ofMillis(fleetHoldSlackMs));
    for (int i = 0; i < orders.length; i++) {
      orders[i] = new FleetOrder(board, fleetConfig, admissions[i], clock, "instance-" + i);
      admissions[i].useFleetFloor(orders[i]::floor);
      if (fleetHold) {
        admissions[i].useFleetFront(orders[i]::front);
      }
    }
  }

  public static void main(String[] args) {
    Map<String, String> given = BenchArguments.parse(args);
    AdmissionModel model =
        new AdmissionModel(
            Integer.parseInt(given.getOrDefault("users", "30000")),
            Integer.parseInt(given.getOrDefault("coupons", "5000")),
            Double.parseDouble(given.getOrDefault("rate", "1000")),
            Integer.parseInt(given.getOrDefault("limit", "32")),
            Long.parseLong(given.getOrDefault("serviceMs", "80")),
            Long.parseLong(given.getOrDefault("waitMs", "1900")),
            Integer.parseInt(given.getOrDefault("maxQueued", "900")),
            Long.parseLong(given.getOrDefault("seed", "1")),
            Integer.parseInt(given.getOrDefault("maxRetries", "1000")),
            Boolean.parseBoolean(given.getOrDefault("exponential", "true")),
            Long.parseLong(given.getOrDefault("delayMs", "0")),
            Boolean.parseBoolean(given.getOrDefault("appointments", "true")),
            Integer.parseInt(given.getOrDefault("instances", "1")),
            Double.parseDouble(given.getOrDefault("noShow", "0")),
            Boolean.parseBoolean(given.getOrDefault("tickets", "true")),
            Double.parseDouble(given.getOrDefault("slowdown", "1")),
            Boolean.parseBoolean(given.getOrDefault("fleet", "false")),
            Long.parseLong(given.getOrDefault("fleetMs", "1000")),
            Boolean.parseBoolean(given.getOrDefault("precise", "true")),
            Long.parseLong(given.getOrDefault("minRetryMs", "1000")),
            Boolean.parseBoolean(given.getOrDefault("frontEnd", "false")),
            Double.parseDouble(given.getOrDefault("sellOutFactor", "0")),
            Double.parseDouble(given.getOrDefault("sellOutSpacing", "2")),
            Double.parseDouble(given.getOrDefault("headroom", "1.2")),
            Long.parseLong(given.getOrDefault("maxTurnS", "300")),
            Double.parseDouble(given.getOrDefault("startSlowdown", "1")),
            Long.parseLong(given.getOrDefault("startMs", "0")),
            Long.parseLong(given.getOrDefault("holdGraceMs", "150")),
            Long.parseLong(given.getOrDefault("holdSlackMs", "0")),
            Boolean.parseBoolean(given.getOrDefault("fleetHold", "true")),
            Long.parseLong(given.getOrDefault("fleetHoldSlackMs", "150")),
            Long.parseLong(given.getOrDefault("skewMs", "0")),
            Double.parseDouble(given.getOrDefault("returnsPerSlot", "4")),
            Double.parseDouble(given.getOrDefault("idleDrainGrowth", "2")),
            Boolean.parseBoolean(given.getOrDefault("earlyWhenIdle", "true")),
            Double.parseDouble(given.getOrDefault("attemptCpuMs", "0")),
            Integer.parseInt(given.getOrDefault("cores", "2")),
            Long.parseLong(given.getOrDefault("timeoutMs", "10000")),
            Boolean.parseBoolean(given.getOrDefault("startSlowLast", "false")),
            Long.parseLong(given.getOrDefault("maxRetryS", "30")),
            Long.parseLong(given.getOrDefault("maxHoldingMs", "500")),
            Long.parseLong(given.getOrDefault("probeMs", "0")),
            Integer.parseInt(given.getOrDefault("probeMin", "100")),
            Integer.parseInt(given.getOrDefault("refillBelow", "50")),
            Long.parseLong(given.getOrDefault("probeWindowMs", "2000")),
            Integer.parseInt(given.getOrDefault("prefill", "0")),
            Integer.parseInt(given.getOrDefault("firstProbe", "0")),
            Boolean.parseBoolean(given.getOrDefault("ignoreWaited", "false")),
            Long.parseLong(given.getOrDefault("firstProbeMs", "-1")));
    System.out.println(model.run());
  }

  /** Runs the sale to its end and returns its figures. */
  String run() {
    for (int user = 0; user < users; user++) {
      int u = user;
      Instant click = T0.plusNanos(Math.round(user * 1e9 / rate));
      at(click, () -> attempt(u, click, 0));
    }
    for (FleetOrder order : orders) {
      tick(order, T0.plusNanos(Math.round(random.nextDouble() * fleetNanos)));
    }
    while (!events.isEmpty()) {
      Event event = events.poll();
      if (event.cancelled) {
        continue;
      }
      clock.move(Duration.between(clock.instant(), event.at));
      event.action.run();
    }
    int firstWon = 0;
    for (int user = 0; user < coupons && user < users; user++) {
      firstWon += won[user] ? 1 : 0;
    }
    long lastAnswer = 0;
    for (long at : answeredAt) {
      lastAnswer = Math.max(lastAnswer, at);
    }
    return String.format(
        "FIFO %.4f (%d of the first %d), attempts %d, refusals %d, timed out %d, coupons left"
            + " %d, last coupon at %.1f s, last answer at %.1f s, book resets %d, served early %d,"
            + " probes %d, waits for a probe %d",
        firstWon / (double) Math.min(coupons, users),
        firstWon,
        Math.min(coupons, users),
        attempts,
        refusals,
        timedOut,
        stock,
        lastCouponNanos / 1e9,
        lastAnswer / 1e9,
        java.util.Arrays.stream(admissions).mapToLong(FairAdmission::bookResets).sum(),
        java.util.Arrays.stream(admissions).mapToLong(FairAdmission::servedEarly).sum(),
        java.util.Arrays.stream(pools).mapToLong(pool -> pool.probes).sum(),
        java.util.Arrays.stream(pools).mapToLong(pool -> pool.waits).sum());
  }

  private void attempt(int user, Instant firstArrival, int retries) {
    if (attemptCpuNanos > 0) {
      // the cores answer attempts one after another, every one at the same cost: past what they
      // answer, attempts queue before the service sees them, and a client gives up after its
      // timeout (its attempt still takes the cores' time)
      Instant sent = clock.instant();
      coresFreeAt = (coresFreeAt.isAfter(sent) ? coresFreeAt : sent).plusNanos(attemptCpuNanos);
      if (Duration.between(sent, coresFreeAt).toNanos() > timeoutNanos) {
        timedOut++;
        at(sent.plusNanos(timeoutNanos), () -> answered(user));
        return;
      }
      at(coresFreeAt, () -> seen(user, retries == 0 ? clock.instant() : firstArrival, retries));
      return;
    }
    if (delayNanos > 0) {
      // the wait before the service sees the attempt (client, kernel, event loop): its first
      // arrival is stamped when it is seen, or, behind a front end, when it was sent
      long delay = Math.round(-Math.log(1 - random.nextDouble()) * delayNanos);
      Instant sent = clock.instant();
      at(
          sent.plusNanos(delay),
          () -> seen(user, retries == 0 ? (frontEnd ? sent : clock.instant()) : firstArrival, retries));
      return;
    }
    seen(user, firstArrival, retries);
  }

  private void seen(int user, Instant firstArrival, int retries) {
    attempts++;
    if (stock == 0) {
      answered(user); // proven sold out: answered without admission
      return;
    }
    int instance = (user + retries) % admissions.length;
    FairAdmission admission = admissions[instance];
    double slower = instance == admissions.length - 1 ? slowdown : 1;
    Instant waitUntil = clock.instant().plusNanos(waitNanos);
    // the ticket carries the first arrival as the instance that first saw the user stamped it
    Instant stamped =
        retries == 0 && instance == admissions.length - 1
            ? firstArrival.plusNanos(skewNanos)
            : firstArrival;
    (retries == 0 || !tickets
            ? admission.enter(
                retries == 0 ? stamped : clock.instant(), waitUntil, this::turnToTell)
            : admission.enterAgain(stamped, turns[user], waitUntil))
        .thenAccept(
            entry -> {
              if (entry instanceof FairAdmission.Entry.Admitted admitted) {
                double slowerStill =
                    nanos() < startNanos
                            && (!startSlowLast || instance == admissions.length - 1)
                        ? slower * startSlowdown
                        : slower;
                long service = drawn(serviceNanos * slowerStill);
                Consumer<Boolean> claim =
                    waited ->
                        at(
                            clock.instant().plusNanos(service),
                            () -> {
                              if (stock > 0) {
                                stock--;
                                won[user] = true;
                                lastCouponNanos = nanos();
                              }
                              answered(user);
                              admitted
                                  .permit()
                                  .release(
                                      waited && ignoreWaited
                                          ? FairAdmission.Result.IGNORED
                                          : FairAdmission.Result.SUCCESS);
                            });
                if (pools.length == 0) {
                  claim.accept(false);
                } else {
                  pools[instance].take(claim);
                }
              } else {
                refusals++;
                if (retries >= maxRetries) {
                  answered(user);
                  return;
                }
                FairAdmission.Entry.Refused refused = (FairAdmission.Entry.Refused) entry;
                turns[user] = refused.turn();
                Duration told = refused.retryAfter();
                Duration wait =
                    precise
                        ? Duration.ofMillis(RetryAfter.millis(told))
                        : Duration.ofSeconds(RetryAfter.wholeSeconds(told));
                if (noShow > 0 && random.nextDouble() < noShow) {
                  answered(user); // gives up
                  return;
                }
                Instant back = clock.instant().plus(wait).plusMillis(random.nextInt(100));
                at(back, () -> attempt(user, stamped, retries + 1));
              }
            });
  }

  /**
   * A turn beyond the forecast sell-out (the pool's end at capacity, times sellOutFactor, plus 1 s,
   * as SellOutForecast's margin) told as SellOutForecast tells it; every turn as it is without one.
   */
  private Instant turnToTell(Instant turn, Instant arrival) {
    if (sellOutFactor <= 0) {
      return turn;
    }
    Instant now = clock.instant();
    Instant end = T0.plusNanos(Math.round(sellOutFactor * coupons * capacityNanosPerCoupon));
    Instant latest = (end.isAfter(now) ? end : now).plusSeconds(1);
    if (!turn.isAfter(latest)) {
      return turn;
    }
    if (firstBeyond == null) {
      firstBeyond = arrival;
    }
    return SellOutForecast.spacedBeyond(latest, firstBeyond, arrival, sellOutSpacing);
  }

  private void answered(int user) {
    answeredAt[user] = nanos();
    answeredUsers++;
  }

  /** A time of that mean, drawn from an exponential distribution when service times are. */
  private long drawn(double meanNanos) {
    return exponential
        ? Math.round(-Math.log(1 - random.nextDouble()) * meanNanos)
        : Math.round(meanNanos);
  }

  /** One instance's candidate coupons and its probes of the pool, as {@code CandidatePool}. */
  private final class Candidates {
    /** Candidates by the probe that read them: when they expire, and how many are left. */
    private final ArrayDeque<long[]> batches = new ArrayDeque<>();
    private boolean probing;
    private final ArrayDeque<Consumer<Boolean>> waiting = new ArrayDeque<>();
    private final ArrayDeque<Instant> taken = new ArrayDeque<>();
    long probes;
    long waits;

    /** A claim takes a candidate and goes on, or waits for the probe in flight (or a new one). */
    void take(Consumer<Boolean> claim) {
      if (takeOne()) {
        if (left() < refillBelow) {
          probe();
        }
        claim.accept(false);
        return;
      }
      waits++;
      waiting.add(claim);
      probe();
    }

    private void probe() {
      if (probing) {
        return;
      }
      probing = true;
      probes++;
      Instant from = clock.instant().minusNanos(probeWindowNanos);
      while (!taken.isEmpty() && taken.peek().isBefore(from)) {
        taken.poll();
      }
      int size = Math.max(probes == 1 ? Math.max(probeMin, firstProbe) : probeMin, taken.size());
      at(
          clock.instant().plusNanos(drawn(probes == 1 ? firstProbeNanos : probeNanos)),
          () -> {
            probing = false;
            batches.add(new long[] {nanos() + probeWindowNanos, size});
            while (!waiting.isEmpty() && takeOne()) {
              waiting.poll().accept(true);
            }
            if (left() < refillBelow || !waiting.isEmpty()) {
              probe();
            }
          });
    }

    /** Takes a fresh candidate, if one is left. */
    private boolean takeOne() {
      dropExpired();
      long[] batch = batches.peek();
      if (batch == null) {
        return false;
      }
      if (--batch[1] == 0) {
        batches.poll();
      }
      taken.add(clock.instant());
      return true;
    }

    private int left() {
      dropExpired();
      long left = 0;
      for (long[] batch : batches) {
        left += batch[1];
      }
      return (int) left;
    }

    private void dropExpired() {
      while (!batches.isEmpty() && batches.peek()[0] <= nanos()) {
        batches.poll();
      }
    }
  }

  /** Nanoseconds from the sale's start to now, in simulated time. */
  private long nanos() {
    return Duration.between(T0, clock.instant()).toNanos();
  }

  /** A round of an instance's fleet order at {@code when}, and the next while any user waits. */
  private void tick(FleetOrder order, Instant when) {
    at(
        when,
        () -> {
          order.tick();
          if (answeredUsers < users) {
            tick(order, when.plusNanos(fleetNanos));
          }
        });
  }

  /** The fleet board in memory: an entry's age is the simulated time since it was written. */
  private final class Board implements FleetBoard {
    private final Map<String, Instant> writtenAt = new HashMap<>();
    private final Map<String, Duration> booked = new HashMap<>();
    private final Map<String, Instant> heldFrom = new HashMap<>();

    @Override
    public void publish(String instanceId, Duration wait, Instant held) {
      writtenAt.put(instanceId, clock.instant());
      booked.put(instanceId, wait);
      heldFrom.put(instanceId, held == null ? null : held.truncatedTo(ChronoUnit.MILLIS));
    }

    @Override
    public void withdraw(String instanceId) {
      writtenAt.remove(instanceId);
      booked.remove(instanceId);
    }

    @Override
    public List<Entry> others(String instanceId, Duration staleAfter) {
      List<Entry> fresh = new ArrayList<>();
      writtenAt.forEach(
          (id, at) -> {
            Duration age = Duration.between(at, clock.instant());
            if (!id.equals(instanceId) && age.compareTo(staleAfter) < 0) {
              fresh.add(new Entry(id, booked.get(id), heldFrom.get(id), age));
            }
          });
      return fresh;
    }
  }

  private Event at(Instant when, Runnable action) {
    Event event = new Event(when, sequence++, action);
    events.add(event);
    return event;
  }

  private static final class Event implements Comparable<Event> {
    final Instant at;
    final long sequence;
    final Runnable action;
    boolean cancelled;

    Event(Instant at, long sequence, Runnable action) {
      this.at = at;
      this.sequence = sequence;
      this.action = action;
    }

    @Override
    public int compareTo(Event other) {
      int byTime = at.compareTo(other.at);
      return byTime != 0 ? byTime : Long.compare(sequence, other.sequence);
    }
  }
}
