package flashclaim.http;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.Api;
import flashclaim.testing.Claimer;
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
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * G6: an instance over its in-flight limit sheds the excess with 503 + Retry-After at once, keeps
 * its thread pool at its configured size, and serves everything it admitted correctly. On both
 * stores.
 */
class OverloadTest {

  @ParameterizedTest
  @ValueSource(strings = {"firestore", "postgres"})
  void excessRequestsAreShedNotQueuedWithoutBound(String store) throws Exception {
    StoreBackend backend = StoreBackend.named(store);
    int storeThreads = 2;
    Map<String, Object> properties = new HashMap<>(backend.properties());
    properties.put("flashclaim.http.max-in-flight", 4);
    properties.put("micronaut.executors.store.number-of-threads", storeThreads);
    try (ServiceInstance small = ServiceInstance.start(properties);
        var ignored = new AutoCloseableExecutor(Executors.newFixedThreadPool(64))) {
      backend.reset(); // after the start: an instance creates the PostgreSQL schema
      Api.createCampaign(small.url(), "overload", 1, 1_000);
      ExecutorService clients = ignored.executor;

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

      Map<Integer, Long> byStatus =
          responses.stream().collect(Collectors.groupingBy(Api.Response::status, Collectors.counting()));
      assertThat(byStatus).containsOnlyKeys(201, 503);
      List<Api.Response> shed =
          responses.stream()
              .filter(r -> r.status() == 503)
              .filter(r -> "urn:flashclaim:problem:overloaded".equals(r.json().get("type")))
              .toList();
      assertThat(shed).isNotEmpty().allSatisfy(r -> assertThat(r.header("Retry-After")).isEqualTo("1"));
      long storeThreadsSeen =
          Thread.getAllStackTraces().keySet().stream()
              .filter(t -> t.getName().startsWith("store-executor-thread"))
              .count();
      // Each application context of the test JVM has its own pool; this one is the only one open.
      assertThat(storeThreadsSeen).isLessThanOrEqualTo(storeThreads);

      // Everyone who was shed gets a coupon on retry; nobody gets two.
      for (int i = 0; i < 400; i++) {
        assertThat(Claimer.claimUntilFinal(small.url(), "overload", "crowd-" + i).status())
            .isIn(200, 201);
      }
      Api.Response stock = Api.get(small.url(), "/v1/admin/campaigns/overload", Tokens.admin());
      assertThat(((Map<?, ?>) stock.json().get("stock")).get("assigned")).isEqualTo(400);
    }
  }

  /**
   * G6: a claim's deadline counts from the moment the instance admitted it, so time spent queued
   * for a store thread is part of it. One store thread and hundreds of admitted claims, each a
   * slow transaction of the {@code seed} strategy (a query in a transaction, tens of milliseconds
   * or more): served one after another they would take tens of seconds, but each claim answers by
   * its deadline with a coupon or a 503. The store holds every coupon that was answered 201, and
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
                "flashclaim.http.max-in-flight", 1_000,
                "micronaut.executors.store.number-of-threads", 1,
                "flashclaim.claim.deadline", deadline.toMillis() + "ms",
                "flashclaim.claim.strategy", "seed",
                "flashclaim.guard.enabled", false))) {
      Api.createCampaign(one.url(), "queued", 1, claims);
      for (int i = 0; i < 5; i++) { // warm up: the first claims of a cold instance are slow
        assertThat(Claimer.claimUntilFinal(one.url(), "queued", "warm-" + i).status()).isEqualTo(201);
      }
      HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      List<CompletableFuture<long[]>> answers = new ArrayList<>();
      for (int i = 0; i < claims; i++) {
        HttpRequest request =
            Api.request(one.url(), "/v1/campaigns/queued/claims", Tokens.user("queued-" + i))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
        long sent = System.nanoTime();
        answers.add(
            client
                .sendAsync(request, HttpResponse.BodyHandlers.ofString())
                .thenApply(r -> new long[] {r.statusCode(), System.nanoTime() - sent}));
      }
      Map<Long, Long> byStatus = new TreeMap<>();
      long slowestMillis = 0;
      for (CompletableFuture<long[]> answer : answers) {
        long[] a = answer.get(120, TimeUnit.SECONDS);
        byStatus.merge(a[0], 1L, Long::sum);
        slowestMillis = Math.max(slowestMillis, TimeUnit.NANOSECONDS.toMillis(a[1]));
      }
      assertThat(byStatus.keySet()).isSubsetOf(201L, 503L);
      assertThat(byStatus).containsKey(503L);
      // Served one by one, 400 seed transactions take tens of seconds; by their deadline, about
      // 0.5 s. The wide margin is for a loaded machine, not for the queue.
      assertThat(slowestMillis).isLessThan(deadline.toMillis() + 5_000);
      Map<String, Object> audit =
          Api.get(one.url(), "/v1/admin/campaigns/queued/audit", Tokens.admin()).json();
      assertThat(audit.get("ok")).as(audit.toString()).isEqualTo(true);
      assertThat(((Number) audit.get("assigned")).intValue())
          .isGreaterThanOrEqualTo(5 + byStatus.getOrDefault(201L, 0L).intValue())
          .isEqualTo(((Number) audit.get("claims")).intValue());
    }
  }

  private record AutoCloseableExecutor(ExecutorService executor) implements AutoCloseable {
    @Override
    public void close() {
      executor.shutdownNow();
    }
  }
}
