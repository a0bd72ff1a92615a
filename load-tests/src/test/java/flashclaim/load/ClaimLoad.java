package flashclaim.load;

import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.jsonPath;
import static io.gatling.javaapi.core.CoreDsl.pause;
import static io.gatling.javaapi.core.CoreDsl.rampUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.header;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import io.gatling.javaapi.core.Assertion;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import io.gatling.javaapi.http.HttpRequestActionBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;
import java.util.stream.Stream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * What every workload simulation shares: its parameters (system properties with defaults), the
 * users' feeder with tokens signed here, the claim request with its bounded 503 retries, the
 * assertions, and a tally of the answers that {@code bin/load-run} reads after the run.
 *
 * <p>Parameters (all {@code -Dname=value}, passed through {@code ./mvnw -f load-tests/pom.xml
 * gatling:test}):
 *
 * <ul>
 *   <li>{@code baseUrlsFile}: a file of more base URLs, one a line, read again every 250 ms:
 *       a user arriving later is spread over {@code baseUrls} and the URLs the file holds then
 *       ({@code bin/load-run --add-instance-at} writes a new instance's URL there once it is
 *       ready, as an autoscaler adds it to a load balancer); none by default
 *   <li>{@code baseUrls}: comma-separated service base URLs; requests are spread over them
 *   <li>{@code campaignId}: the campaign to claim from (it must exist and be seeded)
 *   <li>{@code users}, {@code coupons}, {@code duration} (seconds of the arrival window)
 *   <li>{@code runId}: prefix of the user ids, unique per run by default
 *   <li>{@code secret}: HS256 secret; else env {@code FLASHCLAIM_AUTH_HS256_SECRET}; else the
 *       development default of the service
 *   <li>{@code tokenTtlSeconds}: lifetime of the signed tokens (3600)
 *   <li>{@code maxRetries} (20), {@code retryPauseCapMs} (1000): the 503 retry policy, see {@link
 *       #claim}
 *   <li>{@code honourRetryAfter}: wait what Retry-After says (plus up to 100 ms), uncapped, instead
 *       of a random half to all of it capped at {@code retryPauseCapMs} (default per workload)
 *   <li>{@code tickets} (true): send the {@code Flashclaim-Ticket} response header back unchanged
 *       in the request header of the same name on the retry; false: a client that ignores it
 *   <li>{@code requestTimeoutMs}: how long a client waits for an answer (default per workload)
 *   <li>{@code minFifoPrecision}: the FIFO precision the summary requires (W6: 0.98; others none)
 *   <li>{@code p99Ms} (250), {@code maxFailedPercent} (0): the assertions
 *   <li>{@code shareConnections}: one connection pool for all virtual users instead of one
 *       connection per user (default false: every user is a separate client; W3, W6, W8: true).
 *       Gatling opens a new connection whenever every pooled one is busy, so the pool has no
 *       bound: a bound on the connections to an instance, as a load balancer's front end keeps,
 *       is {@code bin/load-run --front-end}'s
 *   <li>{@code closeConnections}: every claim request asks the service to close its connection
 *       after the answer ({@code Connection: close}), so that users waiting out Retry-After hold
 *       no connection (default per workload: W8 true, else false)
 *   <li>{@code outcomeFile}: where the tally is written as JSON after the run
 *   <li>{@code answersFile}: where every attempt is written as CSV after the run ({@code
 *       sentAtEpochMs,ms,status,hammer,final}; none by default), for {@code bin/load-run}'s
 *       summary (calibration, floor, windows, a frozen store, honest users against hammerers);
 *       beside it, {@code <answersFile less .csv>-by-user.csv} holds every attempt with its user
 *       ({@code user,attempt,sentAtEpochMs,ms,status,toldMs,final}, toldMs the wait a 503 or 429
 *       told in milliseconds, -1 for none), to follow one user's claim from click to answer
 *   <li>{@code timelineSeconds} (5): the width of the tally's windows of answers over time
 *   <li>{@code hammer} (0): the share of users who retry a 503 at once, in a tight loop, ignoring
 *       Retry-After (up to {@code hammerMaxRetries}, 10,000); every {@code 1/hammer}-th user,
 *       spread evenly. Their attempts are requests named {@code claim-hammer}, the others'
 *       {@code claim}; the tally keeps the honest users' figures apart
 *   <li>{@code alsoExpect}: more statuses that count as answers, comma-separated ({@code
 *       bin/load-run --pause-at}: 403, the paused campaign's refusal)
 *   <li>{@code expectStatus}: the only status that counts as an answer (the floor phase: 410)
 *   <li>{@code clientWarmUpCampaignId}, {@code clientWarmUpSeconds} (5): before the measured
 *       run, the client warms itself up against that campaign (a pool proven empty) at the
 *       measured run's rate, untallied (see {@link #afterClientWarmUp}); none by default
 *   <li>{@code balance} ({@code user}): how a user's attempts reach the instances: {@code user}
 *       sends every attempt of a user to the instance of their first (round-robin over the
 *       users, a sticky client), {@code attempt} sends each retry to the next instance in turn
 *       over all retries, as a load balancer that picks an instance per request does
 *   <li>{@code floorP99Ms}: the p99 of the cheapest answer measured in the same run at the same
 *       rate ({@code bin/load-run}'s floor phase); when set, the p99 assertion is {@code
 *       floorP99Ms + p99OverFloorMs} (1,000) instead of {@code p99Ms}
 * </ul>
 */
public final class ClaimLoad {
  /** The service's development secret, the same default as {@code bin/mint-token}. */
  public static final String DEFAULT_SECRET = "flashclaim-development-secret-change-me-0123456789";

  /** Answers that are outcomes of a claim, never failures (409 comes with the modification guard). */
  public static final List<Integer> CLAIM_OUTCOMES = List.of(201, 200, 410, 409);

  /** Any status is an answer: only a connection error or a client timeout fails a request. */
  public static final List<Integer> ANY_STATUS = List.of();

  /** The admission ticket: the service may send it with a 503, the client sends it back. */
  public static final String TICKET = "Flashclaim-Ticket";
  /** The wait of a 503 or 429 in milliseconds, beside Retry-After's whole seconds. */
  public static final String RETRY_AFTER_MS = "Flashclaim-Retry-After-Ms";

  private static final int RETRYABLE = 503;
  /**
   * The service's answer to a retry sooner than the Retry-After of the caller's last 503 ({@code
   * retry-too-soon}, with Retry-After the time left): retried as a 503 is.
   */
  private static final int TOO_SOON = 429;
  private static final String REQUEST_NAME = "claim";
  /** The name of the hammering users' attempts ({@code -Dhammer}). */
  private static final String HAMMER_REQUEST_NAME = "claim-hammer";
  /** The name of the client's warm-up requests ({@code -DclientWarmUpCampaignId}). */
  private static final String CLIENT_WARM_UP_REQUEST_NAME = "client-warm-up";

  private final String workload;
  private final List<String> baseUrls;
  private final LiveUrls liveUrls;
  /** Whether each retry goes to the next instance in turn ({@code -Dbalance=attempt}). */
  private final boolean balancePerAttempt;
  /** The retries spread so far, for the next instance's turn. */
  private final AtomicLong retriesSpread = new AtomicLong();
  private final String campaignId;
  private final int users;
  private final int coupons;
  private final Duration duration;
  private final String runId;
  private final byte[] secret;
  private final Duration tokenTtl;
  private final int maxRetries;
  private final Duration retryPauseCap;
  private final int p99Ms;
  private final double maxFailedPercent;
  private final boolean shareConnections;
  private final boolean closeConnections;
  private final boolean honourRetryAfter;
  private final boolean tickets;
  private final Duration requestTimeout;
  private final double minFifoPrecision;
  private final Path outcomeFile;
  private final Path answersFile;
  private final double hammer;
  private final int hammerMaxRetries;
  private final int floorP99Ms;
  private final int p99OverFloorMs;
  private final Integer expectStatus;
  private final List<Integer> alsoExpect;
  private final String clientWarmUpCampaign;
  private final Duration clientWarmUp;
  /** Whether the client warms itself up before the measured run ({@link #afterClientWarmUp}). */
  private final boolean clientWarmsUp;
  private final AtomicBoolean saleStarted = new AtomicBoolean();
  private volatile String shape = "";
  private final Tally tally;

  /**
   * The defaults of one workload; every one can be overridden by its system property.
   *
   * @param users users unless {@code -Dusers}
   * @param coupons coupons unless {@code -Dcoupons}
   * @param durationSeconds arrival window unless {@code -Dduration}
   * @param p99Ms p99 limit unless {@code -Dp99Ms}
   * @param maxRetries retries after a 503 unless {@code -DmaxRetries}
   * @param shareConnections unless {@code -DshareConnections}
   * @param honourRetryAfter unless {@code -DhonourRetryAfter}
   * @param requestTimeoutMs unless {@code -DrequestTimeoutMs}
   * @param minFifoPrecision unless {@code -DminFifoPrecision}: written to the tally for {@code
   *     bin/load-run}'s summary to check; 0 checks nothing
   * @param closeConnections unless {@code -DcloseConnections}
   */
  public record Defaults(
      int users,
      int coupons,
      int durationSeconds,
      int p99Ms,
      int maxRetries,
      boolean shareConnections,
      boolean honourRetryAfter,
      int requestTimeoutMs,
      double minFifoPrecision,
      boolean closeConnections) {

    /**
     * W1's client: up to 20 retries, each after what Retry-After says, a connection each. (A client
     * that comes back sooner is answered 429 until then: the service paces early retries.)
     */
    public static Defaults of(int users, int coupons, int durationSeconds, int p99Ms) {
      return new Defaults(
          users, coupons, durationSeconds, p99Ms, 20, false, true, 60_000, 0, false);
    }

    public Defaults withRetries(int retries, boolean honour) {
      return new Defaults(
          users, coupons, durationSeconds, p99Ms, retries, shareConnections, honour,
          requestTimeoutMs, minFifoPrecision, closeConnections);
    }

    /**
     * One pool of kept-alive connections for all users, reused from one request to the next (a
     * new one whenever all are busy), as a load balancer reuses its connections to an instance.
     */
    public Defaults withSharedConnections() {
      return new Defaults(
          users, coupons, durationSeconds, p99Ms, maxRetries, true, honourRetryAfter,
          requestTimeoutMs, minFifoPrecision, closeConnections);
    }

    public Defaults withRequestTimeoutMs(int ms) {
      return new Defaults(
          users, coupons, durationSeconds, p99Ms, maxRetries, shareConnections, honourRetryAfter,
          ms, minFifoPrecision, closeConnections);
    }

    /** The FIFO precision that {@code bin/load-run}'s summary requires (0: none). */
    public Defaults withMinFifoPrecision(double precision) {
      return new Defaults(
          users, coupons, durationSeconds, p99Ms, maxRetries, shareConnections, honourRetryAfter,
          requestTimeoutMs, precision, closeConnections);
    }

    /**
     * Each answer closes its connection ({@code Connection: close}), as a phone's does not outlive
     * a pause of seconds: a client waiting out Retry-After holds no descriptor, on either side.
     */
    public Defaults withClosedConnections() {
      return new Defaults(
          users, coupons, durationSeconds, p99Ms, maxRetries, shareConnections, honourRetryAfter,
          requestTimeoutMs, minFifoPrecision, true);
    }
  }

  /** Reads the parameters, with the defaults of W1's client and the given sizes. */
  public ClaimLoad(
      String workload,
      int defaultUsers,
      int defaultCoupons,
      int defaultDurationSeconds,
      int defaultP99Ms) {
    this(workload, Defaults.of(defaultUsers, defaultCoupons, defaultDurationSeconds, defaultP99Ms));
  }

  /**
   * Reads the parameters, with the defaults of one workload.
   *
   * @param workload W1..W6, for the log and the tally
   */
  public ClaimLoad(String workload, Defaults defaults) {
    this.workload = workload;
    this.baseUrls =
        Arrays.stream(System.getProperty("baseUrls", "http://127.0.0.1:8080").split(","))
            .map(String::trim)
            .filter(url -> !url.isEmpty())
            .map(url -> url.endsWith("/") ? url.substring(0, url.length() - 1) : url)
            .toList();
    if (baseUrls.isEmpty()) {
      throw new IllegalArgumentException("-DbaseUrls names no URL");
    }
    String more = System.getProperty("baseUrlsFile", "");
    this.liveUrls = new LiveUrls(baseUrls, more.isBlank() ? null : Path.of(more));
    String balance = System.getProperty("balance", "user").trim();
    if (!balance.equals("user") && !balance.equals("attempt")) {
      throw new IllegalArgumentException("-Dbalance must be user or attempt, not " + balance);
    }
    this.balancePerAttempt = balance.equals("attempt");
    this.campaignId = System.getProperty("campaignId", "load");
    this.users = positive("users", defaults.users());
    this.coupons = Integer.getInteger("coupons", defaults.coupons());
    this.duration = Duration.ofSeconds(positive("duration", defaults.durationSeconds()));
    this.runId =
        System.getProperty(
            "runId",
            "load-"
                + Long.toString(System.currentTimeMillis(), 36)
                + "-"
                + Integer.toString(ThreadLocalRandom.current().nextInt(1 << 20), 36));
    String configured = System.getProperty("secret", System.getenv("FLASHCLAIM_AUTH_HS256_SECRET"));
    this.secret =
        (configured == null || configured.isBlank() ? DEFAULT_SECRET : configured)
            .getBytes(StandardCharsets.UTF_8);
    this.tokenTtl = Duration.ofSeconds(positive("tokenTtlSeconds", 3600));
    this.maxRetries = Integer.getInteger("maxRetries", defaults.maxRetries());
    this.retryPauseCap = Duration.ofMillis(positive("retryPauseCapMs", 1000));
    this.p99Ms = positive("p99Ms", defaults.p99Ms());
    this.maxFailedPercent = Double.parseDouble(System.getProperty("maxFailedPercent", "0"));
    this.shareConnections = flag("shareConnections", defaults.shareConnections());
    this.closeConnections = flag("closeConnections", defaults.closeConnections());
    this.honourRetryAfter = flag("honourRetryAfter", defaults.honourRetryAfter());
    this.tickets = flag("tickets", true);
    this.requestTimeout =
        Duration.ofMillis(positive("requestTimeoutMs", defaults.requestTimeoutMs()));
    this.minFifoPrecision =
        Double.parseDouble(
            System.getProperty("minFifoPrecision", Double.toString(defaults.minFifoPrecision())));
    this.tally = new Tally(Duration.ofSeconds(positive("timelineSeconds", 5)));
    this.outcomeFile =
        Path.of(System.getProperty("outcomeFile", "target/gatling/" + runId + "-outcome.json"));
    String answers = System.getProperty("answersFile", "");
    this.answersFile = answers.isBlank() ? null : Path.of(answers);
    this.hammer = Double.parseDouble(System.getProperty("hammer", "0"));
    if (hammer < 0 || hammer > 1) {
      throw new IllegalArgumentException("-Dhammer must be between 0 and 1, was " + hammer);
    }
    this.hammerMaxRetries = positive("hammerMaxRetries", 10_000);
    this.floorP99Ms = Integer.getInteger("floorP99Ms", 0);
    this.p99OverFloorMs = positive("p99OverFloorMs", 1_000);
    this.expectStatus = Integer.getInteger("expectStatus");
    this.alsoExpect =
        Arrays.stream(System.getProperty("alsoExpect", "").split(","))
            .map(String::trim)
            .filter(code -> !code.isEmpty())
            .map(Integer::valueOf)
            .toList();
    this.clientWarmUpCampaign = System.getProperty("clientWarmUpCampaignId", "").trim();
    this.clientWarmUp = Duration.ofSeconds(Integer.getInteger("clientWarmUpSeconds", 5));
    if (!clientWarmUpCampaign.isEmpty() && clientWarmUp.isNegative()) {
      throw new IllegalArgumentException("-DclientWarmUpSeconds must not be negative");
    }
    this.clientWarmsUp = !clientWarmUpCampaign.isEmpty() && !clientWarmUp.isZero();
  }

  private static boolean flag(String property, boolean defaultValue) {
    String value = System.getProperty(property);
    return value == null || value.isBlank() ? defaultValue : Boolean.parseBoolean(value.trim());
  }

  public int users() {
    return users;
  }

  public Duration duration() {
    return duration;
  }

  public List<String> baseUrls() {
    return baseUrls;
  }

  /** {@code defaults}, or only {@code -DexpectStatus} when it is set (the floor phase: 410). */
  public List<Integer> expected(List<Integer> defaults) {
    if (expectStatus != null) {
      return List.of(expectStatus);
    }
    List<Integer> all = new ArrayList<>(defaults);
    all.addAll(alsoExpect);
    return List.copyOf(all);
  }

  /** Whether user {@code i} (0-based) hammers: {@code hammer} of the users, spread evenly. */
  boolean hammers(long user) {
    return hammer > 0 && Math.floor((user + 1) * hammer) > Math.floor(user * hammer);
  }

  /**
   * HTTP settings: no base URL (every request names its instance), warm-up on the first one; with
   * shared connections, one pool for all users. (Gatling's {@code maxConnectionsPerHost} bounds
   * only a user's fetches of a page's resources, not a shared pool.)
   */
  public HttpProtocolBuilder protocol() {
    HttpProtocolBuilder protocol =
        http.warmUp(baseUrls.get(0) + "/health").acceptHeader("application/json");
    return shareConnections
        ? protocol.shareConnections()
        : protocol;
  }

  /**
   * Feeder of distinct users: user {@code i} (0-based) is {@code <runId>-u<i>}, with a token signed
   * here and the base URL {@code baseUrls[i % n]}. Each user is fed {@code clicks} times in a row,
   * click {@code k} going to {@code baseUrls[(i + k) % n]}, so the clicks of one user reach
   * different instances.
   */
  public Iterator<Map<String, Object>> users(int clicks) {
    // Every token is signed now, before the run, not while the load is measured; the base URL is
    // chosen when the user arrives, among the URLs known then.
    List<String> tokens = new ArrayList<>(users);
    for (int user = 0; user < users; user++) {
      String id = runId + "-u" + user;
      tokens.add(token(id));
      if (hammers(user)) {
        tally.hammerer(id);
      }
    }
    AtomicLong next = new AtomicLong();
    long total = (long) users * clicks;
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return next.get() < total;
      }

      @Override
      public Map<String, Object> next() {
        long fed = next.getAndIncrement();
        if (fed >= total) {
          throw new java.util.NoSuchElementException();
        }
        int user = (int) (fed / clicks);
        int click = (int) (fed % clicks);
        List<String> urls = liveUrls.current();
        return Map.of(
            "userId", runId + "-u" + user,
            "token", tokens.get(user),
            "baseUrl", urls.get((user + click) % urls.size()),
            "hammer", hammers(user));
      }
    };
  }

  /**
   * An endless feeder of distinct users (the calibration's closed loop: every virtual user is a
   * new user), each token signed when the user is fed, round-robin over the base URLs.
   */
  public Iterator<Map<String, Object>> endlessUsers() {
    AtomicLong next = new AtomicLong();
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return true;
      }

      @Override
      public Map<String, Object> next() {
        long user = next.getAndIncrement();
        String id = runId + "-u" + user;
        return Map.of(
            "userId", id,
            "token", token(id),
            "baseUrl", liveUrls.pick(user),
            "hammer", false);
      }
    };
  }


  /**
   * One claim of the user fed by {@code feeder} (see {@link #users(int)}), retried after a 503
   * that carries Retry-After, at most {@code maxRetries} times, each time after a pause (see {@link
   * #retryPause}); a {@value #TICKET} header of an answer goes back, unchanged, on the next try
   * (unless {@code -Dtickets=false}). A 429 {@code retry-too-soon} (a retry that came sooner than
   * the last 503's Retry-After, as a pause of half of it may) is retried the same way. Every attempt
   * is a request named {@code claim}: {@code expected} answers are OK ({@link #ANY_STATUS}: every
   * status), a 503 or 429 with Retry-After is OK while retries remain; anything else, and a 503
   * after the last retry, is KO.
   */
  public ChainBuilder claim(Iterator<Map<String, Object>> feeder, List<Integer> expected) {
    return feed(feeder).exec(attempts(expected));
  }

  /**
   * W1, W3, W4, W6: users arriving evenly over the duration, each claiming once; after the
   * client's warm-up when there is one (see {@link #afterClientWarmUp}).
   */
  public PopulationBuilder oneClaimPerUser(String scenarioName, List<Integer> expected) {
    return afterClientWarmUp(
        scenario(scenarioName)
            .exec(startOfSale())
            .exec(claim(users(1), expected(expected)))
            .injectOpen(rampUsers(users).during(duration)));
  }

  /**
   * {@code measured} alone, or with {@code -DclientWarmUpCampaignId}, after the client's own
   * warm-up: for {@code clientWarmUpSeconds} (5) users of their own send one claim each to that
   * campaign (a pool proven empty: every answer a cheap 410) at the measured run's rate, through
   * the same connection pool, and are neither tallied nor asserted. A client that starts cold
   * compiles its own code and opens its pool in the first seconds, which are the seconds in which
   * the first users to click arrive; a phone's requests reach an instance through a front end
   * that has been running all along. The sale's time starts when its first user is fed.
   */
  private PopulationBuilder afterClientWarmUp(PopulationBuilder measured) {
    if (!clientWarmsUp) {
      return measured;
    }
    int warmUsers = (int) Math.max(1, users * clientWarmUp.toMillis() / duration.toMillis());
    List<String> tokens = new ArrayList<>(warmUsers);
    for (int user = 0; user < warmUsers; user++) {
      tokens.add(token(runId + "-warm-u" + user));
    }
    AtomicLong next = new AtomicLong();
    Iterator<Map<String, Object>> feeder =
        Stream.generate(
                () -> {
                  int user = (int) (next.getAndIncrement() % warmUsers);
                  return Map.<String, Object>of(
                      "token", tokens.get(user), "baseUrl", liveUrls.pick(user));
                })
            .iterator();
    return scenario("client warm-up")
        .feed(feeder)
        .exec(
            http(CLIENT_WARM_UP_REQUEST_NAME)
                .post("#{baseUrl}/v1/campaigns/" + clientWarmUpCampaign + "/claims")
                .header("Authorization", "Bearer #{token}")
                .requestTimeout(requestTimeout)
                .check(status().gte(100)))
        .injectOpen(rampUsers(warmUsers).during(clientWarmUp))
        .andThen(measured);
  }

  /** The first user fed of the measured run starts the tally's time and announces it. */
  private ChainBuilder startOfSale() {
    return exec(
        session -> {
          if (clientWarmsUp && saleStarted.compareAndSet(false, true)) {
            startTally();
          }
          return session;
        });
  }

  private ChainBuilder attempts(List<Integer> expected) {
    if (maxRetries == 0) {
      // One attempt and no loop: the client's own work per request stays small (W3 measures the
      // service's rate with the client on the same cores).
      return exec(session -> {
                long now = System.currentTimeMillis();
                tally.clicked(session.getString("userId"), System.nanoTime());
                return session.set("attempt", 0).set("firstSentAt", now).set("sentAt", now);
              })
          .exec(request(expected, false))
          .exec(this::afterAttempt);
    }
    return exec(session ->
            session
                .set("attempt", 0)
                .set("done", false)
                .set("retryLimit", hammering(session) ? hammerMaxRetries : maxRetries))
        .asLongAs(session -> !session.getBoolean("done"))
        .on(
            exec(session -> {
                  long now = System.currentTimeMillis();
                  if (session.getInt("attempt") == 0) {
                    tally.clicked(session.getString("userId"), System.nanoTime());
                    session = session.set("firstSentAt", now);
                  } else if (balancePerAttempt) {
                    session =
                        session.set("baseUrl", liveUrls.pick(retriesSpread.getAndIncrement()));
                  }
                  return session
                      .removeAll("status", "retryAfter", "retryAfterMs", "code", "problem", "newTicket")
                      .set("sentAt", now);
                })
                .doIfOrElse(session -> tickets && session.contains("ticket"))
                .then(exec(request(expected, true)))
                .orElse(exec(request(expected, false)))
                .exec(this::afterAttempt)
                // a hammering user sends the next attempt at once
                .doIf(session -> !session.getBoolean("done") && !hammering(session))
                .then(pause(this::retryPause)));
  }

  private static boolean hammering(Session session) {
    return session.contains("hammer") && session.getBoolean("hammer");
  }

  /** The claim request, with the ticket of the last answer or without one. */
  private HttpRequestActionBuilder request(List<Integer> expected, boolean withTicket) {
    List<Integer> expectedOrRetryable = new ArrayList<>(expected);
    expectedOrRetryable.add(RETRYABLE);
    expectedOrRetryable.add(TOO_SOON);
    HttpRequestActionBuilder request =
        http(session -> hammering(session) ? HAMMER_REQUEST_NAME : REQUEST_NAME)
            .post("#{baseUrl}/v1/campaigns/" + campaignId + "/claims")
            .header("Authorization", "Bearer #{token}")
            .requestTimeout(requestTimeout);
    if (closeConnections) {
      request = request.header("Connection", "close");
    }
    if (withTicket) {
      request = request.header(TICKET, "#{ticket}");
    }
    return request
        .check(status().saveAs("status"))
        .check(
            expected.isEmpty()
                ? status().gte(100)
                : status()
                    .in(
                        session ->
                            session.getInt("attempt") < retryLimit(session)
                                ? expectedOrRetryable
                                : expected))
        .check(header(TICKET).optional().saveAs("newTicket"))
        .checkIf((response, session) -> retryable(response.status().code()))
        .then(
            header("Retry-After").saveAs("retryAfter"),
            header(RETRY_AFTER_MS).optional().saveAs("retryAfterMs"),
            jsonPath("$.type").optional().saveAs("problem"))
        .checkIf(
            (response, session) -> {
              int code = response.status().code();
              return code == 200 || code == 201;
            })
        .then(jsonPath("$.code").saveAs("code"));
  }

  private int retryLimit(Session session) {
    return session.contains("retryLimit") ? session.getInt("retryLimit") : maxRetries;
  }

  private Session afterAttempt(Session session) {
    int status = session.contains("status") ? session.getInt("status") : 0;
    int attempt = session.getInt("attempt");
    String problem = session.contains("problem") ? session.getString("problem") : null;
    boolean hammering = hammering(session);
    // an honest client retries a 503 (or 429) that says when; a hammering one retries any at once
    boolean retry =
        retryable(status)
            && (hammering || session.contains("retryAfter"))
            && attempt < retryLimit(session);
    tally.attempt(
        problem == null ? Integer.toString(status) : status + " " + problemName(problem),
        session.getLong("sentAt"),
        hammering,
        !retry,
        session.getString("baseUrl"),
        session.getString("userId"),
        attempt,
        retryable(status) ? told(session).map(Duration::toMillis).orElse(-1L) : -1);
    if (tickets && session.contains("ticket")) {
      tally.ticketSent();
    }
    if (session.contains("newTicket")) {
      tally.ticketReceived();
      if (attempt == 0) {
        tally.firstSeen(session.getString("newTicket"), session.getLong("firstSentAt"));
      }
      if (tickets) {
        session = session.set("ticket", session.getString("newTicket"));
      }
    }
    if (retry) {
      return session.set("attempt", attempt + 1);
    }
    tally.outcome(
        session.getString("userId"),
        status,
        session.contains("code") ? session.getString("code") : null,
        attempt,
        session.getLong("sentAt"),
        session.getLong("firstSentAt"));
    return session.set("done", true);
  }

  /**
   * The wait the last 503 or 429 told: {@value #RETRY_AFTER_MS} in milliseconds, else Retry-After's
   * whole seconds; empty without either, or for an HTTP-date or garbage.
   */
  private static Optional<Duration> told(Session session) {
    try {
      if (session.contains("retryAfterMs")) {
        return Optional.of(
            Duration.ofMillis(Long.parseLong(session.getString("retryAfterMs").trim())));
      }
      if (session.contains("retryAfter")) {
        return Optional.of(
            Duration.ofSeconds(Long.parseLong(session.getString("retryAfter").trim())));
      }
    } catch (RuntimeException notANumber) {
      return Optional.empty();
    }
    return Optional.empty();
  }

  /** A 503, or a 429 {@code retry-too-soon}: the client is told to come back. */
  private static boolean retryable(int status) {
    return status == RETRYABLE || status == TOO_SOON;
  }

  /** {@code urn:flashclaim:problem:busy} -> {@code busy}. */
  private static String problemName(String type) {
    return type.substring(type.lastIndexOf(':') + 1);
  }

  /**
   * The pause before a retry. A client that honours Retry-After waits what the service said, in
   * milliseconds ({@value #RETRY_AFTER_MS}) or else in Retry-After's whole seconds, plus up to 100
   * ms so that clients told the same do not come back in one wave; otherwise a random half to all
   * of it, capped at {@code retryPauseCapMs}. An HTTP-date or garbage waits the cap.
   */
  private Duration retryPause(Session session) {
    Duration asked = told(session).orElse(retryPauseCap);
    if (honourRetryAfter) {
      return asked.plusMillis(ThreadLocalRandom.current().nextLong(101));
    }
    long capped = Math.min(asked.toMillis(), retryPauseCap.toMillis());
    long half = capped / 2;
    return Duration.ofMillis(half + ThreadLocalRandom.current().nextLong(capped - half + 1));
  }

  /**
   * No failed requests (above {@code maxFailedPercent}), and p99 of all requests under {@code
   * p99Ms}, or under {@code floorP99Ms + p99OverFloorMs} when the run's floor was measured. With
   * hammering users, both hold for the honest users' requests ({@code claim}); the summary of
   * {@code bin/load-run} reports the hammerers'. The client's warm-up is not asserted.
   */
  public Assertion[] assertions() {
    int limit = p99LimitMs();
    if (hammer > 0 || clientWarmsUp) {
      return new Assertion[] {
        details(REQUEST_NAME).failedRequests().percent().lte(maxFailedPercent),
        details(REQUEST_NAME).responseTime().percentile(99.0).lt(limit)
      };
    }
    return new Assertion[] {
      global().failedRequests().percent().lte(maxFailedPercent),
      global().responseTime().percentile(99.0).lt(limit)
    };
  }

  /** The p99 limit of the attempts: {@code floorP99Ms + p99OverFloorMs}, else {@code p99Ms}. */
  public int p99LimitMs() {
    return floorP99Ms > 0 ? floorP99Ms + p99OverFloorMs : p99Ms;
  }

  /**
   * No failed request, and at least {@code minAnswersPerSecond} answers per second over the run
   * (W3: a sold-out storm must be served at that rate).
   */
  public Assertion[] throughputAssertions(int defaultMinAnswersPerSecond) {
    double min = positive("minAnswersPerSecond", defaultMinAnswersPerSecond);
    return new Assertion[] {
      global().failedRequests().count().is(0L), global().requestsPerSec().gte(min)
    };
  }

  /** Prints the tally and writes it as JSON to {@code outcomeFile}; call from {@code after()}. */
  public void report(int clicks) {
    String json =
        tally.toJson(
            workload, runId, campaignId, users, clicks, coupons, baseUrls, minFifoPrecision,
            hammer, p99LimitMs());
    System.out.println("flashclaim " + workload + " outcome: " + json);
    try {
      Path parent = outcomeFile.toAbsolutePath().getParent();
      Files.createDirectories(parent);
      Files.writeString(outcomeFile, json + "\n");
      if (answersFile != null) {
        Files.createDirectories(answersFile.toAbsolutePath().getParent());
        tally.writeAnswers(answersFile);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not write " + outcomeFile + " or " + answersFile, e);
    }
  }

  /**
   * Logs what this run will do, ending with {@code start <epoch ms>} (when the tally's time
   * starts: {@code bin/load-run --freeze-store} counts from there); call from {@code before()}.
   * After a client warm-up, that line comes when the measured run's first user is fed.
   */
  public void announce(String shape) {
    this.shape = shape;
    if (clientWarmsUp) {
      System.out.printf(
          Locale.ROOT,
          "flashclaim %s client warm-up: %d s against campaign %s before the measured run%n",
          workload,
          clientWarmUp.toSeconds(),
          clientWarmUpCampaign);
      return;
    }
    startTally();
  }

  private void startTally() {
    tally.start();
    System.out.printf(
        Locale.ROOT,
        "flashclaim %s: %s; %d users, %d coupons, %d s, campaign %s, run %s, %s, start %d%n",
        workload,
        balancePerAttempt ? shape + ", each retry to the next instance in turn" : shape,
        users,
        coupons,
        duration.toSeconds(),
        campaignId,
        runId,
        baseUrls,
        tally.startEpochMs());
  }

  /** An HS256 JWT {@code {sub, roles:[], iat, exp}}, as {@code bin/mint-token} signs it. */
  String token(String subject) {
    long now = System.currentTimeMillis() / 1000;
    String header = base64Url("{\"alg\":\"HS256\",\"typ\":\"JWT\"}");
    String payload =
        base64Url(
            "{\"sub\":\""
                + jsonEscape(subject)
                + "\",\"roles\":[],\"iat\":"
                + now
                + ",\"exp\":"
                + (now + tokenTtl.toSeconds())
                + "}");
    String signingInput = header + "." + payload;
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      byte[] signature = mac.doFinal(signingInput.getBytes(StandardCharsets.US_ASCII));
      return signingInput + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(signature);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }

  private static String base64Url(String json) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(json.getBytes(StandardCharsets.UTF_8));
  }

  private static String jsonEscape(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (char c : text.toCharArray()) {
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20) {
        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static int positive(String property, int defaultValue) {
    int value = Integer.getInteger(property, defaultValue);
    if (value <= 0) {
      throw new IllegalArgumentException("-D" + property + " must be positive, was " + value);
    }
    return value;
  }

  /**
   * What the simulation saw, beyond Gatling's OK/KO: every attempt's status, each claim's final
   * status, retries, per user the code it was given, to catch two different codes for one user
   * (G2, G4) or a second 201, and false sold-outs (G3): a 410 received before some claim that got
   * a 201 was even sent, since a taken coupon is never given back. For fairness (G7): the time from
   * each user's first click to the final answer, tickets received and sent back, and the FIFO
   * precision: of the first {@code coupons} users to click, the share that got a coupon.
   */
  static final class Tally {
    private final Map<String, LongAdder> attempts = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> outcomes = new ConcurrentHashMap<>();
    private final Map<String, String> codeOfUser = new ConcurrentHashMap<>();
    private final Map<String, Boolean> createdFor = new ConcurrentHashMap<>();
    private final LongAdder retries = new LongAdder();
    private final LongAdder retriedClaims = new LongAdder();
    private final LongAdder differentCode = new LongAdder();
    private final LongAdder second201 = new LongAdder();
    private final AtomicLong started = new AtomicLong();
    private final AtomicLong first = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong last = new AtomicLong();
    private final AtomicLong lastCreatedSentAt = new AtomicLong();
    private final Queue<Long> soldOutReceivedAt = new ConcurrentLinkedQueue<>();
    /** Every answer, in the order they came. */
    private final Queue<Answer> timeline = new ConcurrentLinkedQueue<>();
    /** The users who hammer ({@code -Dhammer}). */
    private final Set<String> hammerers = ConcurrentHashMap.newKeySet();
    /** Per user, the {@link System#nanoTime} of the first click: the order in which users came. */
    private final Map<String, Long> firstClick = new ConcurrentHashMap<>();
    /** Per claim, ms from its first click to its final answer. */
    private final Queue<Long> clickToAnswer = new ConcurrentLinkedQueue<>();
    private final AtomicLong mostRetries = new AtomicLong();
    private final LongAdder ticketsReceived = new LongAdder();
    private final LongAdder ticketsSent = new LongAdder();
    /** Per user refused at the first attempt, ms from sending it to the service's first arrival. */
    private final Queue<Long> seenAfterSend = new ConcurrentLinkedQueue<>();
    private final Duration window;

    Tally(Duration window) {
      this.window = window;
    }

    void start() {
      started.set(System.currentTimeMillis());
    }

    long startEpochMs() {
      return started.get();
    }

    /**
     * One answer: its status, and for a 503 or 429 the problem type's name ("503 busy"); whether
     * a hammering user got it, and whether it was the claim's final answer.
     */
    void attempt(
        String label,
        long sentAt,
        boolean hammering,
        boolean last,
        String baseUrl,
        String user,
        int attempt,
        long toldMs) {
      attempts.computeIfAbsent(label, s -> new LongAdder()).increment();
      timeline.add(
          new Answer(
              sentAt,
              System.currentTimeMillis() - sentAt,
              label,
              label.startsWith(RETRYABLE + " ") || label.equals(Integer.toString(RETRYABLE)),
              hammering,
              last,
              baseUrl,
              user,
              attempt,
              toldMs));
    }

    void hammerer(String user) {
      hammerers.add(user);
    }

    /** Every answer as CSV: {@code sentAtEpochMs,ms,status,hammer,final,baseUrl} (1 or 0). */
    void writeAnswers(Path file) throws IOException {
      try (var out = Files.newBufferedWriter(file)) {
        out.write("sentAtEpochMs,ms,status,hammer,final,baseUrl\n");
        for (Answer a : timeline) {
          out.write(
              a.sentAt() + "," + a.ms() + "," + a.label() + "," + (a.hammering() ? 1 : 0) + ","
                  + (a.last() ? 1 : 0) + "," + a.baseUrl() + "\n");
        }
      }
      String name = file.getFileName().toString().replaceFirst("\\.csv$", "");
      try (var out = Files.newBufferedWriter(file.resolveSibling(name + "-by-user.csv"))) {
        out.write("user,attempt,sentAtEpochMs,ms,status,toldMs,final\n");
        for (Answer a : timeline) {
          out.write(
              a.user() + "," + a.attempt() + "," + a.sentAt() + "," + a.ms() + "," + a.label()
                  + "," + a.toldMs() + "," + (a.last() ? 1 : 0) + "\n");
        }
      }
    }

    /** A user clicked (the first attempt of a claim) at {@code nanos}. */
    void clicked(String user, long nanos) {
      firstClick.merge(user, nanos, Math::min);
    }

    void ticketReceived() {
      ticketsReceived.increment();
    }

    void ticketSent() {
      ticketsSent.increment();
    }

    /**
     * The first answer of a claim carried a ticket, which holds the moment the service first saw
     * the user (its payload's first 8 bytes: epoch microseconds in version 2, milliseconds in
     * version 1; the ticket's format is the service's {@code TicketCodec}): how long after the
     * client sent it, on this machine's one clock. It is the wait the service cannot see (client,
     * kernel, event loop), and how far the service's order of arrival can stray from the order of
     * clicks.
     */
    void firstSeen(String ticket, long firstSentAtEpochMs) {
      String[] parts = ticket.split("\\.");
      if (parts.length != 3 || !(parts[0].equals("1") || parts[0].equals("2"))) {
        return;
      }
      try {
        byte[] payload = Base64.getUrlDecoder().decode(parts[1]);
        if (payload.length >= 8) {
          long arrival = ByteBuffer.wrap(payload).getLong();
          long seen = parts[0].equals("2") ? Math.floorDiv(arrival, 1_000L) : arrival;
          seenAfterSend.add(seen - firstSentAtEpochMs);
        }
      } catch (IllegalArgumentException notBase64) {
        // not a ticket of this format: nothing to learn
      }
    }

    void outcome(
        String user, int status, String code, int retriesTaken, long sentAt, long firstSentAt) {
      long now = System.currentTimeMillis();
      clickToAnswer.add(now - firstSentAt);
      mostRetries.accumulateAndGet(retriesTaken, Math::max);
      if (status == 201) {
        lastCreatedSentAt.accumulateAndGet(sentAt, Math::max);
      } else if (status == 410) {
        soldOutReceivedAt.add(now);
      }
      first.accumulateAndGet(now, Math::min);
      last.accumulateAndGet(now, Math::max);
      outcomes.computeIfAbsent(Integer.toString(status), s -> new LongAdder()).increment();
      if (retriesTaken > 0) {
        retriedClaims.increment();
        retries.add(retriesTaken);
      }
      if (code != null) {
        String earlier = codeOfUser.putIfAbsent(user, code);
        if (earlier != null && !earlier.equals(code)) {
          differentCode.increment();
        }
      }
      if (status == 201 && createdFor.putIfAbsent(user, Boolean.TRUE) != null) {
        second201.increment();
      }
    }

    long falseSoldOuts() {
      long createdLast = lastCreatedSentAt.get();
      return soldOutReceivedAt.stream().filter(received -> received < createdLast).count();
    }

    String toJson(
        String workload,
        String runId,
        String campaignId,
        int users,
        int clicks,
        int coupons,
        List<String> baseUrls,
        double minFifoPrecision,
        double hammer,
        int p99LimitMs) {
      return "{\"workload\":\""
          + workload
          + "\",\"runId\":\""
          + jsonEscape(runId)
          + "\",\"campaignId\":\""
          + jsonEscape(campaignId)
          + "\",\"users\":"
          + users
          + ",\"clicksPerUser\":"
          + clicks
          + ",\"coupons\":"
          + coupons
          + ",\"instances\":"
          + baseUrls.size()
          + ",\"attempts\":"
          + counts(attempts)
          + ",\"outcomes\":"
          + counts(outcomes)
          + ",\"retries\":"
          + retries.sum()
          + ",\"retriedClaims\":"
          + retriedClaims.sum()
          + ",\"mostRetries\":"
          + mostRetries.get()
          + ",\"ticketsReceived\":"
          + ticketsReceived.sum()
          + ",\"ticketsSent\":"
          + ticketsSent.sum()
          + ",\"attemptMs\":"
          + spread(timeline.stream().mapToLong(Answer::ms).sorted().toArray())
          + ",\"clickToAnswerMs\":"
          + spread(clickToAnswer.stream().mapToLong(Long::longValue).sorted().toArray())
          + ",\"firstSeenAfterSendMs\":"
          + spread(seenAfterSend.stream().mapToLong(Long::longValue).sorted().toArray())
          + ",\"fifo\":"
          + fifoJson(coupons, user -> true)
          + ",\"hammer\":"
          + hammer
          + ",\"hammerers\":"
          + hammerers.size()
          + ",\"fifoHonest\":"
          + (hammerers.isEmpty() ? "null" : fifoJson(coupons, user -> !hammerers.contains(user)))
          + ",\"fifoHammer\":"
          + (hammerers.isEmpty() ? "null" : fifoJson(coupons, hammerers::contains))
          + ",\"p99LimitMs\":"
          + p99LimitMs
          + ",\"minFifoPrecision\":"
          + minFifoPrecision
          + ",\"usersWithCode\":"
          + codeOfUser.size()
          + ",\"sameUserDifferentCode\":"
          + differentCode.sum()
          + ",\"second201\":"
          + second201.sum()
          + ",\"falseSoldOuts\":"
          + falseSoldOuts()
          + ",\"startEpochMs\":"
          + started.get()
          + ",\"timeline\":"
          + timelineJson()
          + ",\"firstOutcomeEpochMs\":"
          + (first.get() == Long.MAX_VALUE ? 0 : first.get())
          + ",\"lastOutcomeEpochMs\":"
          + last.get()
          + "}";
    }

    /**
     * Answers by the window of the run in which they were sent: {@code [from second, answers,
     * 503s, p50 ms, p99 ms, max ms]}, to tell a slow start (JIT) from saturation.
     */
    private String timelineJson() {
      Map<Long, List<Answer>> byWindow = new TreeMap<>();
      long start = started.get();
      long size = Math.max(1, window.toMillis());
      for (Answer answer : timeline) {
        byWindow
            .computeIfAbsent(Math.floorDiv(answer.sentAt() - start, size), w -> new ArrayList<>())
            .add(answer);
      }
      StringBuilder json = new StringBuilder("[");
      byWindow.forEach(
          (index, answers) -> {
            long[] times = answers.stream().mapToLong(Answer::ms).sorted().toArray();
            long unavailable = answers.stream().filter(Answer::unavailable).count();
            json.append(json.length() > 1 ? "," : "")
                .append('[')
                .append(index * size / 1000)
                .append(',')
                .append(times.length)
                .append(',')
                .append(unavailable)
                .append(',')
                .append(percentile(times, 50))
                .append(',')
                .append(percentile(times, 99))
                .append(',')
                .append(times[times.length - 1])
                .append(']');
          });
      return json.append(']').toString();
    }

    /** {@code {"p50":..,"p99":..,"max":..}} of sorted values, null when there are none. */
    private static String spread(long[] sorted) {
      if (sorted.length == 0) {
        return "null";
      }
      return "{\"p50\":"
          + percentile(sorted, 50)
          + ",\"p99\":"
          + percentile(sorted, 99)
          + ",\"max\":"
          + sorted[sorted.length - 1]
          + "}";
    }

    /**
     * Of the first {@code coupons} users to click (or all, if fewer clicked), those {@code among}
     * takes, how many got a coupon: {@code {"first":..,"won":..,"precision":..}}; null without
     * coupons or without such users.
     */
    private String fifoJson(int coupons, Predicate<String> among) {
      if (coupons <= 0 || firstClick.isEmpty()) {
        return "null";
      }
      List<String> byClick =
          firstClick.entrySet().stream()
              .sorted(Map.Entry.comparingByValue())
              .map(Map.Entry::getKey)
              .limit(coupons)
              .filter(among)
              .toList();
      if (byClick.isEmpty()) {
        return "null";
      }
      long won = byClick.stream().filter(codeOfUser::containsKey).count();
      return String.format(
          Locale.ROOT,
          "{\"first\":%d,\"won\":%d,\"precision\":%.4f}",
          byClick.size(),
          won,
          (double) won / byClick.size());
    }

    /** One answer to one attempt. */
    private record Answer(
        long sentAt,
        long ms,
        String label,
        boolean unavailable,
        boolean hammering,
        boolean last,
        String baseUrl,
        String user,
        int attempt,
        long toldMs) {}

    private static long percentile(long[] sorted, int percent) {
      int rank = (int) Math.ceil(percent / 100.0 * sorted.length);
      return sorted[Math.max(0, rank - 1)];
    }

    private static String counts(Map<String, LongAdder> byStatus) {
      Map<String, Long> sorted = new TreeMap<>();
      byStatus.forEach((status, count) -> sorted.put(status, count.sum()));
      StringBuilder json = new StringBuilder("{");
      sorted.forEach(
          (status, count) ->
              json.append(json.length() > 1 ? "," : "")
                  .append('"')
                  .append(status)
                  .append("\":")
                  .append(count));
      return json.append('}').toString();
    }
  }

  /**
   * The base URLs requests go to: {@code baseUrls}, then those of {@code file} (one a line), read
   * again at most every 250 ms, so that an instance added during the run gets users from then on.
   */
  static final class LiveUrls {
    private static final long REREAD_NANOS = 250_000_000L;
    private final List<String> fixed;
    private final Path file;
    private volatile List<String> current;
    private volatile long readAt;

    LiveUrls(List<String> fixed, Path file) {
      this.fixed = List.copyOf(fixed);
      this.file = file;
      this.current = this.fixed;
      this.readAt = System.nanoTime() - REREAD_NANOS;
    }

    List<String> current() {
      if (file != null && System.nanoTime() - readAt >= REREAD_NANOS) {
        synchronized (this) {
          if (System.nanoTime() - readAt >= REREAD_NANOS) {
            current = read();
            readAt = System.nanoTime();
          }
        }
      }
      return current;
    }

    String pick(long user) {
      List<String> urls = current();
      return urls.get((int) (user % urls.size()));
    }

    private List<String> read() {
      List<String> all = new ArrayList<>(fixed);
      try {
        if (Files.exists(file)) {
          for (String line : Files.readAllLines(file)) {
            String url = line.strip();
            if (!url.isEmpty() && !all.contains(url)) {
              all.add(url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
            }
          }
        }
      } catch (IOException e) {
        return current; // a file being written: the URLs known so far
      }
      return List.copyOf(all);
    }
  }
}
