package flashclaim.load;

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
import java.io.IOException;
import java.io.UncheckedIOException;
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
import java.util.NoSuchElementException;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
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
 *   <li>{@code baseUrls}: comma-separated service base URLs; requests are spread over them
 *   <li>{@code campaignId}: the campaign to claim from (it must exist and be seeded)
 *   <li>{@code users}, {@code coupons}, {@code duration} (seconds of the arrival window)
 *   <li>{@code runId}: prefix of the user ids, unique per run by default
 *   <li>{@code secret}: HS256 secret; else env {@code FLASHCLAIM_AUTH_HS256_SECRET}; else the
 *       development default of the service
 *   <li>{@code tokenTtlSeconds}: lifetime of the signed tokens (3600)
 *   <li>{@code maxRetries} (20), {@code retryPauseCapMs} (1000): the 503 retry policy, see {@link
 *       #claim}
 *   <li>{@code p99Ms} (250), {@code maxFailedPercent} (0): the assertions
 *   <li>{@code shareConnections}: one connection pool for all virtual users instead of one
 *       connection per user (default false: every user is a separate client)
 *   <li>{@code outcomeFile}: where the tally is written as JSON after the run
 *   <li>{@code timelineSeconds} (5): the width of the tally's windows of answers over time
 * </ul>
 */
public final class ClaimLoad {
  /** The service's development secret, the same default as {@code bin/mint-token}. */
  public static final String DEFAULT_SECRET = "flashclaim-development-secret-change-me-0123456789";

  /** Answers that are outcomes of a claim, never failures (409 comes with the modification guard). */
  public static final List<Integer> CLAIM_OUTCOMES = List.of(201, 200, 410, 409);

  private static final int RETRYABLE = 503;
  private static final String REQUEST_NAME = "claim";

  private final String workload;
  private final List<String> baseUrls;
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
  private final Path outcomeFile;
  private final Tally tally;

  /**
   * Reads the parameters, with the defaults of one workload.
   *
   * @param workload W1..W4, for the log and the tally
   * @param defaultUsers users unless {@code -Dusers}
   * @param defaultCoupons coupons unless {@code -Dcoupons}
   * @param defaultDurationSeconds arrival window unless {@code -Dduration}
   * @param defaultP99Ms p99 limit unless {@code -Dp99Ms}
   */
  public ClaimLoad(
      String workload,
      int defaultUsers,
      int defaultCoupons,
      int defaultDurationSeconds,
      int defaultP99Ms) {
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
    this.campaignId = System.getProperty("campaignId", "load");
    this.users = positive("users", defaultUsers);
    this.coupons = Integer.getInteger("coupons", defaultCoupons);
    this.duration = Duration.ofSeconds(positive("duration", defaultDurationSeconds));
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
    this.maxRetries = Integer.getInteger("maxRetries", 20);
    this.retryPauseCap = Duration.ofMillis(positive("retryPauseCapMs", 1000));
    this.p99Ms = positive("p99Ms", defaultP99Ms);
    this.maxFailedPercent = Double.parseDouble(System.getProperty("maxFailedPercent", "0"));
    this.shareConnections = Boolean.getBoolean("shareConnections");
    this.tally = new Tally(Duration.ofSeconds(positive("timelineSeconds", 5)));
    this.outcomeFile =
        Path.of(System.getProperty("outcomeFile", "target/gatling/" + runId + "-outcome.json"));
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

  /** HTTP settings: no base URL (every request names its instance), warm-up on the first one. */
  public HttpProtocolBuilder protocol() {
    HttpProtocolBuilder protocol =
        http.warmUp(baseUrls.get(0) + "/health").acceptHeader("application/json");
    return shareConnections ? protocol.shareConnections() : protocol;
  }

  /**
   * Feeder of distinct users: user {@code i} (0-based) is {@code <runId>-u<i>}, with a token signed
   * here and the base URL {@code baseUrls[i % n]}. Each user is fed {@code clicks} times in a row,
   * click {@code k} going to {@code baseUrls[(i + k) % n]}, so the clicks of one user reach
   * different instances.
   */
  public Iterator<Map<String, Object>> users(int clicks) {
    return new Iterator<>() {
      private int next;

      @Override
      public boolean hasNext() {
        return next < users * clicks;
      }

      @Override
      public Map<String, Object> next() {
        if (!hasNext()) {
          throw new NoSuchElementException("all " + users + " users were fed");
        }
        int user = next / clicks;
        int click = next % clicks;
        next++;
        String id = runId + "-u" + user;
        return Map.of(
            "userId", id,
            "token", token(id),
            "baseUrl", baseUrls.get((user + click) % baseUrls.size()));
      }
    };
  }

  /**
   * One claim of the user fed by {@code feeder} (see {@link #users(int)}), retried after a 503
   * that carries Retry-After, at most {@code maxRetries} times, each time after a pause of a random share (half to all) of the Retry-After,
   * capped at {@code retryPauseCapMs}. Every attempt is a request named {@code claim}: {@code
   * expected} answers are OK, a 503 with Retry-After is OK while retries remain; anything else,
   * and a 503 after the last retry, is KO.
   */
  public ChainBuilder claim(Iterator<Map<String, Object>> feeder, List<Integer> expected) {
    List<Integer> expectedOrRetryable = new ArrayList<>(expected);
    expectedOrRetryable.add(RETRYABLE);
    return feed(feeder).exec(attempts(expected, expectedOrRetryable));
  }

  /** W1, W3, W4: users arriving evenly over the duration, each claiming once. */
  public PopulationBuilder oneClaimPerUser(String scenarioName, List<Integer> expected) {
    return scenario(scenarioName)
        .exec(claim(users(1), expected))
        .injectOpen(rampUsers(users).during(duration));
  }

  private ChainBuilder attempts(List<Integer> expected, List<Integer> expectedOrRetryable) {
    String path = "/v1/campaigns/" + campaignId + "/claims";
    return exec(session -> session.set("attempt", 0).set("done", false))
        .asLongAs(session -> !session.getBoolean("done"))
        .on(
            exec(session ->
                    session
                        .removeAll("status", "retryAfter", "code", "problem")
                        .set("sentAt", System.currentTimeMillis()))
                .exec(
                    http(REQUEST_NAME)
                        .post("#{baseUrl}" + path)
                        .header("Authorization", "Bearer #{token}")
                        .check(status().saveAs("status"))
                        .check(
                            status()
                                .in(
                                    session ->
                                        session.getInt("attempt") < maxRetries
                                            ? expectedOrRetryable
                                            : expected))
                        .checkIf((response, session) -> response.status().code() == RETRYABLE)
                        .then(
                            header("Retry-After").saveAs("retryAfter"),
                            jsonPath("$.type").optional().saveAs("problem"))
                        .checkIf(
                            (response, session) -> {
                              int code = response.status().code();
                              return code == 200 || code == 201;
                            })
                        .then(jsonPath("$.code").saveAs("code")))
                .exec(this::afterAttempt)
                .doIf(session -> !session.getBoolean("done"))
                .then(pause(this::retryPause)));
  }

  private Session afterAttempt(Session session) {
    int status = session.contains("status") ? session.getInt("status") : 0;
    int attempt = session.getInt("attempt");
    String problem = session.contains("problem") ? session.getString("problem") : null;
    tally.attempt(
        problem == null ? Integer.toString(status) : status + " " + problemName(problem),
        session.getLong("sentAt"));
    boolean retry = status == RETRYABLE && session.contains("retryAfter") && attempt < maxRetries;
    if (retry) {
      return session.set("attempt", attempt + 1);
    }
    tally.outcome(
        session.getString("userId"),
        status,
        session.contains("code") ? session.getString("code") : null,
        attempt,
        session.getLong("sentAt"));
    return session.set("done", true);
  }

  /** {@code urn:flashclaim:problem:busy} -> {@code busy}. */
  private static String problemName(String type) {
    return type.substring(type.lastIndexOf(':') + 1);
  }

  private Duration retryPause(Session session) {
    Duration asked;
    try {
      asked = Duration.ofSeconds(Long.parseLong(session.getString("retryAfter").trim()));
    } catch (RuntimeException notSeconds) {
      asked = retryPauseCap; // an HTTP-date or garbage: wait the longest we allow
    }
    long capped = Math.min(asked.toMillis(), retryPauseCap.toMillis());
    long half = capped / 2;
    return Duration.ofMillis(half + ThreadLocalRandom.current().nextLong(capped - half + 1));
  }

  /** No failed requests (above {@code maxFailedPercent}), and p99 of all requests under p99Ms. */
  public Assertion[] assertions() {
    return new Assertion[] {
      global().failedRequests().percent().lte(maxFailedPercent),
      global().responseTime().percentile(99.0).lt(p99Ms)
    };
  }

  /** Prints the tally and writes it as JSON to {@code outcomeFile}; call from {@code after()}. */
  public void report(int clicks) {
    String json = tally.toJson(workload, runId, campaignId, users, clicks, coupons, baseUrls);
    System.out.println("flashclaim " + workload + " outcome: " + json);
    try {
      Path parent = outcomeFile.toAbsolutePath().getParent();
      Files.createDirectories(parent);
      Files.writeString(outcomeFile, json + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException("could not write " + outcomeFile, e);
    }
  }

  /** Logs what this run will do; call from {@code before()}. */
  public void announce(String shape) {
    tally.start();
    System.out.printf(
        Locale.ROOT,
        "flashclaim %s: %s; %d users, %d coupons, %d s, campaign %s, run %s, %s%n",
        workload,
        shape,
        users,
        coupons,
        duration.toSeconds(),
        campaignId,
        runId,
        baseUrls);
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
   * a 201 was even sent, since a taken coupon is never given back.
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
    /** Per answer: sent at (epoch ms), response time (ms), 1 if a 503. */
    private final Queue<long[]> timeline = new ConcurrentLinkedQueue<>();
    private final Duration window;

    Tally(Duration window) {
      this.window = window;
    }

    void start() {
      started.set(System.currentTimeMillis());
    }

    /** One answer: its status, and for a 503 the problem type's name ("503 busy"). */
    void attempt(String label, long sentAt) {
      attempts.computeIfAbsent(label, s -> new LongAdder()).increment();
      long unavailable = label.startsWith(RETRYABLE + " ") ? 1 : 0;
      timeline.add(new long[] {sentAt, System.currentTimeMillis() - sentAt, unavailable});
    }

    void outcome(String user, int status, String code, int retriesTaken, long sentAt) {
      long now = System.currentTimeMillis();
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
        List<String> baseUrls) {
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
      Map<Long, List<long[]>> byWindow = new TreeMap<>();
      long start = started.get();
      long size = Math.max(1, window.toMillis());
      for (long[] answer : timeline) {
        byWindow.computeIfAbsent((answer[0] - start) / size, w -> new ArrayList<>()).add(answer);
      }
      StringBuilder json = new StringBuilder("[");
      byWindow.forEach(
          (index, answers) -> {
            long[] times = answers.stream().mapToLong(a -> a[1]).sorted().toArray();
            long unavailable = answers.stream().filter(a -> a[2] == 1).count();
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
}
