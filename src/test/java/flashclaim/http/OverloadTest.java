package flashclaim.http;

import flashclaim.admission.FairAdmission;
import flashclaim.http.shed.LoadShedFilter;
import flashclaim.testing.Api;
import flashclaim.testing.Claimer;
import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.TestEmulator;
import flashclaim.testing.Tokens;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * G6 under overload of one instance: claims beyond the admission limit wait in a bounded queue or
 * are refused at once with 503, Retry-After and a ticket; threads and the queue stay within their
 * bounds; everything admitted is served correctly, and the store is exact. On both stores.
 */
class OverloadTest {
  private static final int LIMIT = 4;
  private static final int MAX_QUEUED = 8;
  private static final int STORE_THREADS = 2;

  /**
   * 400 claims at once against a fixed limit of 4 and room for 8 to wait, with other routes bounded
   * at one request (which claims do not count against). Every answer is 201 or a 503 with
   * Retry-After and a ticket; the claims in slots and in line never exceed their bounds; and every
   * user then gets a coupon by retrying with the ticket.
   */
  @ParameterizedTest
  @ValueSource(strings = {"firestore", "postgres"})
  void excessClaimsAreRefusedWithATicketNotQueuedWithoutBound(String store) throws Exception {
    StoreBackend backend = StoreBackend.named(store);
    Map<String, Object> properties = new HashMap<>(backend.properties());
    properties.put("flashclaim.admission.limit", "fixed");
    properties.put("flashclaim.admission.initial-limit", LIMIT);
    properties.put("flashclaim.admission.max-queued", MAX_QUEUED);
    // claims wait until their deadline, so that the line is seen full
    properties.put("flashclaim.admission.max-wait", "2s");
    properties.put("flashclaim.http.max-in-flight", 1);
    properties.put("micronaut.executors.store.number-of-threads", STORE_THREADS);
    try (ServiceInstance small = ServiceInstance.start(properties);
        var ignored = new AutoCloseableExecutor(Executors.newFixedThreadPool(64))) {
      backend.reset(); // after the start: an instance creates the PostgreSQL schema
      Api.createCampaign(small.url(), "overload", 1, 1_000);
      ExecutorService clients = ignored.executor;
      FairAdmission admission = small.context().getBean(FairAdmission.class);
      Bounds bounds = Bounds.watch(admission);

      List<Future<Api.Response>> futures = new ArrayList<>();
      for (int i = 0; i < 400; i++) {
        String user = "crowd-" + i;
        futures.add(
            clients.submit(
                () ->
                    Api.post(
                        small.url(), "/v1/campaigns/overload/claims", Tokens.user(user), null)));
      }
      List<Api.Response> responses = new ArrayList<>();
      for (Future<Api.Response> f : futures) {
        responses.add(f.get(120, TimeUnit.SECONDS));
      }
      bounds.stop();

      Map<Integer, Long> byStatus =
          responses.stream().collect(Collectors.groupingBy(Api.Response::status, Collectors.counting()));
      assertThat(byStatus).containsOnlyKeys(201, 503);
      assertThat(responses.stream().filter(r -> r.status() == 503))
          .allSatisfy(OverloadTest::assertRetryableWithTicket)
          .anySatisfy(r -> assertThat(r.json().get("type")).isEqualTo(OVERLOADED));
      assertThat(bounds.mostInFlight()).isBetween(1, LIMIT);
      assertThat(bounds.mostQueued()).isBetween(1, MAX_QUEUED);
      long storeThreadsSeen =
          Thread.getAllStackTraces().keySet().stream()
              .filter(t -> t.getName().startsWith("store-executor-thread"))
              .count();
      // Each application context of the test JVM has its own pool; this one is the only one open.
      assertThat(storeThreadsSeen).isLessThanOrEqualTo(STORE_THREADS);

      // Everyone who was refused gets a coupon on retry; nobody gets two.
      for (int i = 0; i < 400; i++) {
        assertThat(Claimer.claimUntilFinal(small.url(), "overload", "crowd-" + i).status())
            .isIn(200, 201);
      }
      Api.Response stock = Api.get(small.url(), "/v1/admin/campaigns/overload", Tokens.admin());
      assertThat(((Map<?, ?>) stock.json().get("stock")).get("assigned")).isEqualTo(400);
      assertThat(backend.claims("overload")).hasSize(400);
      assertThat(admission.inFlight()).isZero();
      assertThat(admission.queued()).isZero();
      assertThat(small.context().getBean(LoadShedFilter.class).inFlight()).isZero();
    }
  }

  /**
   * The default, adaptive limit under a crowd of 600 claims for 300 coupons: every answer is a
   * coupon, sold out or a 503 with Retry-After and a ticket, and the store holds the coupons
   * answered 201, and at most those of the 503s {@code busy} whose commit landed as their deadline
   * passed (then every user retries until a final answer: exactly 300 coupons).
   */
  @Test
  void theAdaptiveLimitAnswersEveryClaimAndKeepsTheStoreExact() throws Exception {
    TestEmulator.reset();
    try (ServiceInstance one = ServiceInstance.start(Map.of());
        var ignored = new AutoCloseableExecutor(Executors.newFixedThreadPool(64))) {
      Api.createCampaign(one.url(), "adaptive", 1, 300);
      List<Future<Api.Response>> futures = new ArrayList<>();
      for (int i = 0; i < 600; i++) {
        String user = "adaptive-" + i;
        futures.add(
            ignored.executor.submit(
                () -> Api.post(one.url(), "/v1/campaigns/adaptive/claims", Tokens.user(user), null)));
      }
      int created = 0;
      int busy = 0;
      for (Future<Api.Response> f : futures) {
        Api.Response r = f.get(120, TimeUnit.SECONDS);
        assertThat(r.status()).as(r.toString()).isIn(201, 410, 503);
        if (r.status() == 503) {
          assertRetryableWithTicket(r);
          busy += "urn:flashclaim:problem:busy".equals(r.json().get("type")) ? 1 : 0;
        }
        created += r.status() == 201 ? 1 : 0;
      }
      // Every 201 is in the store; a 503 busy may have committed as its deadline passed (G5: its
      // retry answers 200 with that coupon), nothing else may have.
      assertThat(new FirestoreBackend().claims("adaptive").size()).isBetween(created, created + busy);

      List<Future<Claimer.Result>> finals = new ArrayList<>();
      for (int i = 0; i < 600; i++) {
        String user = "adaptive-" + i;
        finals.add(
            ignored.executor.submit(() -> Claimer.claimUntilFinal(one.url(), "adaptive", user)));
      }
      int holders = 0;
      for (Future<Claimer.Result> f : finals) {
        int status = f.get(120, TimeUnit.SECONDS).status();
        assertThat(status).isIn(200, 201, 410);
        holders += status == 410 ? 0 : 1;
      }
      assertThat(holders).isEqualTo(300);
      assertThat(new FirestoreBackend().claims("adaptive")).hasSize(300);
    }
  }

  /**
   * G6: a claim's deadline counts from the moment the instance admitted it, so time spent queued
   * for a store thread is part of it. One store thread and hundreds of admitted claims, each a
   * slow transaction of the {@code seed} strategy (a query in a transaction, tens of milliseconds
   * or more): served one after another they would take tens of seconds, but each claim answers by
   * its deadline with a coupon or a 503 {@code busy} with a ticket. The store holds every coupon that was answered 201, and
   * is consistent: a claim whose commit the deadline cut short may still have landed, whole (G5).
   */
  @Test
  void admittedClaimsAnswerByTheirDeadlineEvenWhenQueuedForAThread() throws Exception {
    TestEmulator.reset();
    Duration deadline = Duration.ofMillis(500);
    int claims = 400;
    try (ServiceInstance one =
        ServiceInstance.start(
            Map.of(
                "flashclaim.admission.limit", "fixed",
                "flashclaim.admission.initial-limit", 1_000,
                "flashclaim.admission.max-queued", 0,
                // every claim admitted at once: no new user is refused for a turn in the book
                "flashclaim.admission.appointments", false,
                "micronaut.executors.store.number-of-threads", 1,
                "flashclaim.claim.deadline", deadline.toMillis() + "ms",
                "flashclaim.firestore.claim.strategy", "seed"))) {
      Api.createCampaign(one.url(), "queued", 1, claims);
      for (int i = 0; i < 5; i++) { // warm up: the first claims of a cold instance are slow
        // 200: a first try answered 503 by its 500 ms deadline whose commit landed (G5)
        assertThat(Claimer.claimUntilFinal(one.url(), "queued", "warm-" + i).status())
            .isIn(200, 201);
      }
      HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      List<CompletableFuture<Api.Response>> answers = new ArrayList<>();
      for (int i = 0; i < claims; i++) {
        HttpRequest request =
            Api.request(one.url(), "/v1/campaigns/queued/claims", Tokens.user("queued-" + i))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
        answers.add(
            client
                .sendAsync(request, HttpResponse.BodyHandlers.ofString())
                .thenApply(r -> new Api.Response(r.statusCode(), r.headers().map(), r.body())));
      }
      Map<Integer, Long> byStatus = new TreeMap<>();
      for (CompletableFuture<Api.Response> answer : answers) {
        Api.Response r = answer.get(120, TimeUnit.SECONDS);
        byStatus.merge(r.status(), 1L, Long::sum);
        if (r.status() == 503) {
          assertRetryableWithTicket(r);
          assertThat(r.json().get("type")).isEqualTo("urn:flashclaim:problem:busy");
        }
      }
      // How many commit within the deadline depends on the machine's speed; that every claim
      // answers, a coupon or a 503 by its deadline, and that the store stays whole, does not.
      assertThat(byStatus.keySet()).isSubsetOf(201, 503).contains(503);
      // A claim whose commit the deadline cut short may still have landed, whole (G5).
      Map<String, Object> audit =
          Api.get(one.url(), "/v1/admin/campaigns/queued/audit", Tokens.admin()).json();
      assertThat(audit.get("ok")).as(audit.toString()).isEqualTo(true);
      assertThat(((Number) audit.get("assigned")).intValue())
          .isGreaterThanOrEqualTo(5 + byStatus.getOrDefault(201, 0L).intValue())
          .isEqualTo(((Number) audit.get("claims")).intValue());
    }
  }

  private static final String OVERLOADED = "urn:flashclaim:problem:overloaded";

  /** A 503 that the client is told to retry: a whole number of seconds and the caller's ticket. */
  private static void assertRetryableWithTicket(Api.Response r) {
    assertThat(r.status()).isEqualTo(503);
    assertThat((String) r.json().get("type"))
        .isIn(OVERLOADED, "urn:flashclaim:problem:busy", "urn:flashclaim:problem:store-unavailable");
    assertThat(r.header("Retry-After")).as(r.toString()).matches("[1-9][0-9]*");
    assertThat(r.header(Claimer.TICKET)).as(r.toString()).isNotBlank();
  }

  /** The most claims seen in slots and in line, sampled while a test runs. */
  private static final class Bounds {
    private final AtomicInteger mostInFlight = new AtomicInteger();
    private final AtomicInteger mostQueued = new AtomicInteger();
    private final Thread sampler;
    private volatile boolean running = true;

    private Bounds(FairAdmission admission) {
      sampler =
          new Thread(
              () -> {
                while (running) {
                  mostInFlight.accumulateAndGet(admission.inFlight(), Math::max);
                  mostQueued.accumulateAndGet(admission.queued(), Math::max);
                  try {
                    Thread.sleep(1);
                  } catch (InterruptedException e) {
                    return;
                  }
                }
              },
              "bounds-sampler");
    }

    static Bounds watch(FairAdmission admission) {
      Bounds bounds = new Bounds(admission);
      bounds.sampler.start();
      return bounds;
    }

    void stop() throws InterruptedException {
      running = false;
      sampler.join();
    }

    int mostInFlight() {
      return mostInFlight.get();
    }

    int mostQueued() {
      return mostQueued.get();
    }
  }

  private record AutoCloseableExecutor(ExecutorService executor) implements AutoCloseable {
    @Override
    public void close() {
      executor.shutdownNow();
    }
  }
}
