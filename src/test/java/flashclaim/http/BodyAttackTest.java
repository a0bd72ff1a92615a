package flashclaim.http;

import flashclaim.http.BodyFlood.Kind;
import flashclaim.http.BodyFlood.Outcome;
import flashclaim.http.problem.Problem;
import flashclaim.testing.Api;
import flashclaim.testing.Claimer;
import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.Tokens;
import flashclaim.testing.Webhooks;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * G6 under a flood of request bodies: the service runs as operators run it, in a JVM of its own
 * with a small heap and direct-memory limit ({@value #HEAP}, {@value #DIRECT_MEMORY}), and gets at
 * once {@value #ATTACKERS} anonymous 8 MB bodies with their length, as many chunked ones without,
 * and slow ones, on the webhook route and on the claim route, plus users' 8 MB claims, all with an
 * Idempotency-Key, while users claim coupons. No answer is a 5xx, the service never runs out of
 * memory, the users' claims answer 201 (or 503 with Retry-After) during the flood and as expected
 * after it, and nothing of the flood is in the store.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BodyAttackTest {
  static final String HEAP = "-Xmx160m";
  static final String DIRECT_MEMORY = "-XX:MaxDirectMemorySize=64m";
  static final int ATTACKERS = 120;
  static final int SLOW = 10;
  static final int USER_FLOODERS = 20;
  static final long EIGHT_MB = 8L * 1024 * 1024;
  static final String CAMPAIGN = "flooded";
  static final String CLAIMS = "/v1/campaigns/" + CAMPAIGN + "/claims";
  static final int COUPONS = 100;
  /** Users who claim during the flood, at most: fewer than the coupons, so none is sold out. */
  static final int MAX_CLAIMS_DURING = 80;

  private final StoreBackend store = new FirestoreBackend();
  private ChildService service;

  @BeforeAll
  void start() throws Exception {
    store.reset();
    service =
        ChildService.start(
            List.of(HEAP, DIRECT_MEMORY),
            // A generous linger: on a loaded machine a flood takes a while to get through. The
            // read timeout is the service's own, which every slow body runs into: the flood lasts
            // that long.
            Map.of("flashclaim.http.bodies.linger", "20s"));
    Api.createCampaign(service.url(), CAMPAIGN, 1, COUPONS);
  }

  @AfterAll
  void stop() throws Exception {
    if (service != null) {
      service.close();
      // The service's own log, for when an assertion about it fails.
      Files.writeString(Path.of("target", "BodyAttackTest-service.log"), service.output());
    }
  }

  @Test
  void floodOfBodiesLeavesTheServiceServingWithinItsMemory() throws Exception {
    List<BodyFlood.Request> flood = new ArrayList<>();
    for (String path : List.of(Webhooks.PATH, CLAIMS)) {
      flood.addAll(requests(path, Kind.DECLARED, ATTACKERS, EIGHT_MB, null));
      flood.addAll(requests(path, Kind.CHUNKED, ATTACKERS, EIGHT_MB, null));
      flood.addAll(requests(path, Kind.SLOW, SLOW, 60_000, null));
      flood.addAll(requests(path, Kind.SLOW_CHUNKED, SLOW, 0, null));
    }
    flood.addAll(requests(CLAIMS, Kind.DECLARED, USER_FLOODERS, EIGHT_MB, "flooder-a-"));
    flood.addAll(requests(CLAIMS, Kind.CHUNKED, USER_FLOODERS, EIGHT_MB, "flooder-b-"));

    URI url = service.url();
    CompletableFuture<List<Outcome>> attack =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return BodyFlood.send(url, flood, Duration.ofMinutes(3));
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });

    // Users claim while the flood is on: each gets a coupon or is told when to retry.
    Map<String, Api.Response> during = new TreeMap<>();
    List<String> toldToRetry = new ArrayList<>();
    for (int i = 0; (!attack.isDone() || i < 5) && i < MAX_CLAIMS_DURING; i++) {
      String user = "during-" + i;
      Api.Response claim = Api.post(url, CLAIMS, Tokens.user(user), null);
      assertThat(claim.status()).as("claim during the flood: %s", claim).isIn(201, 503);
      if (claim.status() == 503) {
        assertThat(claim.header("Retry-After")).as(claim.toString()).isNotNull();
        toldToRetry.add(user);
      } else {
        during.put(user, claim);
      }
      Thread.sleep(100);
    }
    List<Outcome> outcomes = attack.get(4, TimeUnit.MINUTES);

    assertThat(service.isAlive()).isTrue();
    assertThat(service.output()).doesNotContain("OutOfMemoryError").doesNotContain("LEAK:");
    summarize(outcomes);
    for (Outcome o : outcomes) {
      assertThat(o.answered()).as("answered: %s", o).isTrue();
      assertThat(o.status()).as(o.toString()).isIn(401, 408, 413, 503);
      assertThat(o.header("content-type")).as(o.toString()).startsWith(Problem.MEDIA_TYPE);
      if (o.status() == 503) {
        assertThat(o.header("Retry-After")).as(o.toString()).isNotNull();
      }
    }
    // Anonymous claims are refused before their body is read; an 8 MB body is never taken.
    assertAll(outcomes, o -> o.request().path().equals(CLAIMS) && !hasToken(o), 401);
    assertAll(outcomes, o -> o.request().path().equals(CLAIMS) && hasToken(o), 413, 503);
    assertAll(outcomes, o -> o.request().kind() == Kind.DECLARED, 401, 413);
    // A chunked body is counted as it comes: past the limit 413, or 408 if it came too slowly.
    assertAll(outcomes, o -> o.request().kind() == Kind.CHUNKED, 401, 408, 413, 503);
    assertAll(outcomes, o -> o.request().kind() == Kind.SLOW, 401, 408, 503);
    assertAll(outcomes, o -> o.request().kind() == Kind.SLOW_CHUNKED, 401, 408, 503);

    // After the flood: a new user gets a coupon, the users of before get theirs again.
    Api.Response after = Api.post(url, CLAIMS, Tokens.user("after"), null);
    assertThat(after.status()).as(after.toString()).isEqualTo(201);
    for (Map.Entry<String, Api.Response> held : during.entrySet()) {
      Api.Response again = Api.post(url, CLAIMS, Tokens.user(held.getKey()), null);
      assertThat(again.status()).as(again.toString()).isEqualTo(200);
      assertThat(again.json().get("code")).isEqualTo(held.getValue().json().get("code"));
    }
    // A user told to retry gets a coupon now: 201, or 200 if the claim answered 503 had landed
    // (on a loaded machine the store can answer after the claim's deadline).
    for (String user : toldToRetry) {
      Claimer.Result retry = Claimer.claimUntilFinal(url, CAMPAIGN, user);
      assertThat(retry.status()).as(retry.toString()).isIn(200, 201);
    }
    int holders = during.size() + toldToRetry.size() + 1;
    // Nothing of the flood is stored: no idempotency record, no claim of a flooder.
    assertThat(store.idempotencyRecords()).isEmpty();
    List<StoreBackend.StoredClaim> claims = store.claims(CAMPAIGN);
    assertThat(claims).hasSize(holders);
    assertThat(claims).noneMatch(c -> c.holder().contains("flooder"));
    assertThat(store.coupons(CAMPAIGN).stream().filter(StoreBackend.StoredCoupon::assigned))
        .hasSize(holders);
  }

  private static List<BodyFlood.Request> requests(
      String path, Kind kind, int count, long size, String userPrefix) {
    List<BodyFlood.Request> requests = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Map<String, String> headers = new HashMap<>();
      headers.put("Idempotency-Key", "flood-" + kind + "-" + i);
      headers.put(Webhooks.HEADER, "t=1,v1=00");
      if (userPrefix != null) {
        headers.put("Authorization", "Bearer " + Tokens.user(userPrefix + i));
      }
      requests.add(new BodyFlood.Request(path, kind, size, headers));
    }
    return requests;
  }

  private static boolean hasToken(Outcome o) {
    return o.request().headers().containsKey("Authorization");
  }

  private static void assertAll(List<Outcome> outcomes, Predicate<Outcome> which, Integer... statuses) {
    List<Outcome> matching = outcomes.stream().filter(which).toList();
    assertThat(matching).isNotEmpty();
    for (Outcome o : matching) {
      assertThat(o.status()).as(o.toString()).isIn((Object[]) statuses);
    }
  }

  private static void summarize(List<Outcome> outcomes) {
    Map<String, Long> counts =
        outcomes.stream()
            .collect(
                Collectors.groupingBy(
                    o -> o.request().kind() + " " + o.request().path() + " " + o.status(),
                    TreeMap::new,
                    Collectors.counting()));
    counts.forEach((k, v) -> System.out.println("[body flood] " + k + ": " + v));
  }
}
