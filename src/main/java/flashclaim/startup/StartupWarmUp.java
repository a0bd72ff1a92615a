package flashclaim.startup;

import flashclaim.auth.WarmUpTokens;
import flashclaim.campaign.Campaign;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CampaignService;
import flashclaim.campaign.CampaignStore;
import flashclaim.campaign.CodePrefix;
import io.micronaut.context.event.ApplicationEventPublisher;
import io.micronaut.runtime.event.annotation.EventListener;
import io.micronaut.runtime.server.event.ServerStartupEvent;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The start-up warm-up: once the HTTP server listens, the instance sends itself claims through
 * its own port (so through its filters, token checks, admission, the claim service and the store),
 * on the scratch campaign {@value #CAMPAIGN_ID}, until it has sent {@code flashclaim.warm-up.requests},
 * the JIT compiler has gone quiet on them ({@link JitQuiet}: the code they run is compiled), or
 * {@code flashclaim.warm-up.max-time} has passed. Readiness ({@link WarmUpHealthIndicator}) is
 * DOWN until then, so that the first users meet compiled code rather than the interpreter.
 *
 * <p>Each start adds {@code flashclaim.warm-up.claims} generated coupons to the scratch campaign
 * (created once, on first start), and its requests are, in turn: claims by new users (201 while
 * coupons last, then 410 sold out, the second answered from the proof in memory), some with an
 * {@code Idempotency-Key}; repeats of a claim (200); the caller's holdings; claims without a token
 * (401); claims on a reserved campaign that does not exist (404); and the campaign's status.
 *
 * <p>The scratch campaign is reserved ({@link CampaignId#isReserved()}): no admin can create,
 * list, read, change, audit, seed or export it, its claims reach no meter or live dashboard, and a
 * request reaches it only with the {@link WarmUpPass} while the warm-up runs.
 */
@Singleton
public final class StartupWarmUp {
  static final String CAMPAIGN_ID = "_flashclaim-warm-up";
  static final CampaignId CAMPAIGN = new CampaignId(CAMPAIGN_ID);
  /** Never created: the warm-up's 404 path. */
  static final CampaignId ABSENT = new CampaignId("_flashclaim-warm-up-absent");

  private static final Logger LOG = LoggerFactory.getLogger(StartupWarmUp.class);
  private static final CodePrefix CODE_PREFIX = new CodePrefix("warm-up-");
  private static final Duration SET_UP_RETRY = Duration.ofMillis(200);
  /** How often the JIT's time is read while the requests are sent. */
  private static final Duration QUIET_CHECK = Duration.ofMillis(50);
  /** Kinds of request, in turn (see the class comment). */
  private static final int KINDS = 8;

  /** Where the warm-up is. */
  enum State {
    /** The server has not started yet. */
    WAITING,
    RUNNING,
    /** Every request was sent and answered. */
    DONE,
    /** The JIT went quiet on its requests before all were sent ({@code quiet-answers}). */
    WARM,
    /** {@code max-time} passed first (a slow or unreachable store, a slow machine). */
    CUT_SHORT,
    /** {@code flashclaim.warm-up.enabled=false}. */
    OFF
  }

  private final WarmUpConfig config;
  private final WarmUpPass pass;
  private final WarmUpTokens tokens;
  private final CampaignStore campaignStore;
  private final CampaignService campaigns;
  private final ApplicationEventPublisher<WarmUpEnded> events;
  private final String run;
  private final ConcurrentMap<String, LongAdder> answers = new ConcurrentHashMap<>();
  private final AtomicInteger sent = new AtomicInteger();
  private final JitQuiet jit;
  /** Set once the JIT is quiet: the workers send no more. */
  private volatile boolean warm;
  private volatile State state;
  private volatile long startedNanos;
  private volatile long endedNanos;
  private volatile boolean stopping;

  StartupWarmUp(
      WarmUpConfig config,
      WarmUpPass pass,
      WarmUpTokens tokens,
      CampaignStore campaignStore,
      CampaignService campaigns,
      ApplicationEventPublisher<WarmUpEnded> events) {
    this.config = config;
    this.pass = pass;
    this.tokens = tokens;
    this.campaignStore = campaignStore;
    this.campaigns = campaigns;
    this.events = events;
    byte[] random = new byte[6];
    new SecureRandom().nextBytes(random);
    this.run = HexFormat.of().formatHex(random);
    this.state = config.enabled() ? State.WAITING : State.OFF;
    CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
    this.jit =
        config.quietAnswers() == 0
                || compiler == null
                || !compiler.isCompilationTimeMonitoringSupported()
            ? null
            : new JitQuiet(
                config.quietAnswers(),
                config.quietCompileTime(),
                this::answered,
                compiler::getTotalCompilationTime);
  }

  @EventListener
  void onStartup(ServerStartupEvent event) {
    if (state != State.WAITING) {
      return;
    }
    URI base = URI.create("http://127.0.0.1:" + event.getSource().getPort());
    startedNanos = System.nanoTime();
    pass.open();
    state = State.RUNNING;
    Thread thread = new Thread(() -> run(base), "flashclaim-warm-up");
    thread.setDaemon(true);
    thread.start();
  }

  @PreDestroy
  void stop() {
    stopping = true;
    pass.close();
    tokens.retire();
  }

  /** Whether readiness may stop waiting: the warm-up is off, over, or past its time. */
  boolean finished() {
    State now = state;
    return switch (now) {
      case OFF, DONE, WARM, CUT_SHORT -> true;
      case WAITING -> false;
      case RUNNING -> left().isNegative();
    };
  }

  /** For the readiness details (admins only): the state, the answers by status, the time taken. */
  Map<String, Object> details() {
    Map<String, Object> details = new TreeMap<>();
    State now = state;
    details.put("state", now == State.RUNNING && left().isNegative() ? State.CUT_SHORT : now);
    if (now != State.OFF && now != State.WAITING) {
      details.put("sent", sent.get());
      Map<String, Long> byStatus = new TreeMap<>();
      answers.forEach((status, count) -> byStatus.put(status, count.sum()));
      details.put("answers", byStatus);
      long end = endedNanos == 0 ? System.nanoTime() : endedNanos;
      details.put("tookMillis", Duration.ofNanos(end - startedNanos).toMillis());
    }
    return details;
  }

  private boolean timeLeft() {
    Duration left = left();
    return !left.isNegative() && !left.isZero();
  }

  private Duration left() {
    return config.maxTime().minusNanos(System.nanoTime() - startedNanos);
  }

  private void run(URI base) {
    State end = State.CUT_SHORT;
    try {
      if (setUp()) {
        end = send(base);
      }
    } catch (RuntimeException e) {
      LOG.warn("Start-up warm-up failed: {}", e.toString());
    } finally {
      endedNanos = System.nanoTime();
      pass.close();
      tokens.retire();
      state = end;
      LOG.info(
          "Start-up warm-up {}: {}",
          switch (end) {
            case DONE -> "done";
            case WARM -> "warm";
            default -> "cut short";
          },
          details());
      try {
        events.publishEvent(new WarmUpEnded());
      } catch (RuntimeException closing) {
        // the context stops: no probe to tell
        LOG.debug("Start-up warm-up: its end was not published: {}", closing.toString());
      }
    }
  }

  /**
   * The scratch campaign exists and holds this start's coupons; retried until the time is up.
   *
   * @return false when the time ran out first
   */
  private boolean setUp() {
    while (!stopping && timeLeft()) {
      try {
        campaignStore.create(
            new Campaign(
                CAMPAIGN,
                "start-up warm-up (reserved)",
                1,
                Instant.EPOCH,
                Campaign.LATEST,
                Instant.EPOCH));
        if (campaigns.generate(CAMPAIGN, config.claims(), CODE_PREFIX).isPresent()) {
          return true;
        }
      } catch (RuntimeException e) {
        LOG.debug("Start-up warm-up: the store is not ready: {}", e.toString());
      }
      try {
        Thread.sleep(Math.min(SET_UP_RETRY.toMillis(), Math.max(1, left().toMillis())));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return false;
  }

  /**
   * Sends the requests from {@code concurrency} threads, until all are sent, the JIT is quiet on
   * them, or the time is up.
   *
   * @return how it ended: {@code DONE} (all answered), {@code WARM} or {@code CUT_SHORT}
   */
  private State send(URI base) {
    HttpClient client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(config.maxTime())
            .build();
    AtomicInteger next = new AtomicInteger();
    Thread[] workers = new Thread[config.concurrency()];
    for (int w = 0; w < workers.length; w++) {
      workers[w] =
          new Thread(
              () -> {
                for (int i = next.getAndIncrement();
                    i < config.requests() && !stopping && !warm && timeLeft();
                    i = next.getAndIncrement()) {
                  sendOne(client, request(base, i));
                }
              },
              "flashclaim-warm-up-" + w);
      workers[w].setDaemon(true);
      workers[w].start();
    }
    try {
      for (Thread worker : workers) {
        while (worker.isAlive() && timeLeft() && !warm) {
          worker.join(Math.max(1, Math.min(QUIET_CHECK.toMillis(), left().toMillis())));
          warm = jit != null && jit.check();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return State.CUT_SHORT;
    }
    if (sent.get() >= config.requests() && answered() >= config.requests()) {
      return State.DONE;
    }
    return warm ? State.WARM : State.CUT_SHORT;
  }

  private long answered() {
    return answers.entrySet().stream()
        .filter(e -> !e.getKey().equals("failed"))
        .mapToLong(e -> e.getValue().sum())
        .sum();
  }

  private void sendOne(HttpClient client, HttpRequest request) {
    sent.incrementAndGet();
    String outcome;
    try {
      outcome = Integer.toString(client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      outcome = "failed";
    } catch (java.io.IOException | RuntimeException e) {
      outcome = "failed";
    }
    answers.computeIfAbsent(outcome, k -> new LongAdder()).increment();
  }

  /** The {@code i}-th request: its kind is {@code i % KINDS}. */
  private HttpRequest request(URI base, int i) {
    int kind = i % KINDS;
    String claims = "/v1/campaigns/" + CAMPAIGN_ID + "/claims";
    HttpRequest.Builder request =
        HttpRequest.newBuilder()
            .timeout(timeLeft() ? left() : Duration.ofMillis(1))
            .header(WarmUpPass.HEADER, pass.value());
    HttpRequest.BodyPublisher none = HttpRequest.BodyPublishers.noBody();
    // kinds 0 to 2 claim for a new user; 3 repeats the claim of kind 2's, 4 reads kind 1's holdings
    String user =
        user(
            switch (kind) {
              case 3 -> i - 1;
              case 4 -> i - 3;
              default -> i;
            });
    switch (kind) {
      case 0, 1, 3 -> authorize(request.uri(base.resolve(claims)).POST(none), user);
      case 2 -> authorize(request.uri(base.resolve(claims)).POST(none), user)
          .header("Idempotency-Key", user);
      case 4 -> authorize(request.uri(base.resolve(claims + "/me")).GET(), user);
      case 5 -> request.uri(base.resolve(claims)).POST(none);
      case 6 ->
          authorize(
              request.uri(base.resolve("/v1/campaigns/" + ABSENT.value() + "/claims")).POST(none),
              user);
      default -> authorize(request.uri(base.resolve("/v1/campaigns/" + CAMPAIGN_ID)).GET(), user);
    }
    return request.build();
  }

  private HttpRequest.Builder authorize(HttpRequest.Builder request, String user) {
    tokens.mint(user).ifPresent(token -> request.header("Authorization", "Bearer " + token));
    return request;
  }

  /** A user of this start's warm-up: a subject no real user has, since it names this run. */
  private String user(int i) {
    return "_flashclaim-warm-up-" + run + "-" + i;
  }
}
