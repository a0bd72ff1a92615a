package flashclaim.http;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.Api;
import flashclaim.testing.Claimer;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.Tokens;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
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

  private record AutoCloseableExecutor(ExecutorService executor) implements AutoCloseable {
    @Override
    public void close() {
      executor.shutdownNow();
    }
  }
}
