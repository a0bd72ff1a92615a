package flashclaim.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import flashclaim.testing.Api;
import flashclaim.testing.Claimer;
import flashclaim.testing.MultiInstanceTest;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.Tokens;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The campaign status that apps poll, {@code GET /v1/campaigns/{id}}, through {@value
 * MultiInstanceTest#INSTANCES} instances on one store: the phase of a campaign before its start,
 * open, sold out and ended, with exact remaining counts on every instance; 404, 400 and 401 as
 * problems; ETag and 304; the 403 of a claim outside the window carrying the window; and, while 48
 * clients poll all instances at once, at most one stock read per campaign, second and instance,
 * counted by the status service and, where the store allows, at the store. Subclassed per store.
 */
public abstract class CampaignStatusContract extends MultiInstanceTest {
  static final String PROBLEM = "urn:flashclaim:problem:";

  /**
   * Stock reads of {@code campaign} that {@code instance} sent to the store itself, when the
   * store's client can be observed; empty otherwise.
   */
  protected abstract OptionalLong storeStockReads(ServiceInstance instance, String campaign);

  @Test
  void eachPhaseWithItsExactRemainingCountOnEveryInstance() {
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    Map<String, Window> windows = new HashMap<>();
    windows.put("upcoming", new Window(now.plus(1, ChronoUnit.DAYS), now.plus(2, ChronoUnit.DAYS), 5));
    windows.put("open", new Window(now.minus(1, ChronoUnit.HOURS), now.plus(1, ChronoUnit.DAYS), 3));
    windows.put("sold", new Window(null, null, 2));
    windows.put("empty", new Window(null, now.plus(1, ChronoUnit.DAYS), 0));
    windows.put("ended", new Window(now.minus(2, ChronoUnit.DAYS), now.minus(1, ChronoUnit.DAYS), 4));
    windows.forEach((id, w) -> Api.createCampaign(instance(0), id, 1, w.coupons(), w.startsAt(), w.endsAt()));
    // Claims go through different instances; no status has been read yet, so every instance reads
    // the stock after them.
    assertThat(Claimer.claimUntilFinal(instance(1), "open", "first"))
        .matches(Claimer.Result::tookACoupon);
    assertThat(Claimer.claimUntilFinal(instance(1), "sold", "one"))
        .matches(Claimer.Result::tookACoupon);
    assertThat(Claimer.claimUntilFinal(instance(2), "sold", "two"))
        .matches(Claimer.Result::tookACoupon);

    Map<String, Object[]> expected =
        Map.of(
            "upcoming", new Object[] {"upcoming", 5},
            "open", new Object[] {"open", 2},
            "sold", new Object[] {"sold-out", 0},
            "empty", new Object[] {"sold-out", 0},
            "ended", new Object[] {"ended", 4});
    for (int i = 0; i < INSTANCES; i++) {
      for (Map.Entry<String, Object[]> e : expected.entrySet()) {
        String id = e.getKey();
        Instant before = Instant.now();
        Api.Response answer = status(instance(i), id, Tokens.user("phone-" + i));
        Instant after = Instant.now();
        assertThat(answer.status()).as(id + " " + answer).isEqualTo(200);
        assertThat(answer.contentType()).startsWith("application/json");
        Map<String, Object> body = answer.json();
        Window w = windows.get(id);
        assertThat(body)
            .as("%s on instance %d", id, i)
            .containsEntry("id", id)
            .containsEntry("name", id)
            .containsEntry("status", e.getValue()[0])
            .containsEntry("remaining", e.getValue()[1]);
        assertThat(instant(body.get("startsAt"))).isEqualTo(w.startsAt());
        assertThat(instant(body.get("endsAt"))).isEqualTo(w.endsAt());
        assertThat(body).containsKeys("startsAt", "endsAt"); // present, null when open-ended
        assertThat(instant(body.get("serverTime"))).isBetween(before.minusMillis(1), after.plusMillis(1));
      }
    }
    assertStoreConsistent("sold", 2);
    assertStoreConsistent("open", 1);
  }

  /** The 403 of a claim outside the window carries the window, for the app's countdown. */
  @Test
  void aClaimOutsideTheWindowIsAnsweredWithTheWindow() {
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    Instant starts = now.plus(3, ChronoUnit.HOURS);
    Instant ends = now.plus(5, ChronoUnit.HOURS);
    Api.createCampaign(instance(0), "later", 1, 3, starts, null);
    Api.createCampaign(instance(0), "later-bounded", 1, 3, starts, ends);
    Api.createCampaign(instance(0), "over", 1, 3, null, now.minus(1, ChronoUnit.HOURS));
    Map<String, String> before = backend().snapshot();

    Map<String, Object> notYet = claim(instance(1), "later", "early-bird").json();
    assertThat(notYet)
        .containsEntry("type", PROBLEM + "campaign-not-open")
        .containsEntry("status", 403)
        .doesNotContainKey("endsAt");
    assertThat(instant(notYet.get("startsAt"))).isEqualTo(starts);
    Api.Response bounded = claim(instance(2), "later-bounded", "early-bird");
    assertThat(bounded.status()).isEqualTo(403);
    assertThat(bounded.contentType()).startsWith("application/problem+json");
    assertThat(instant(bounded.json().get("startsAt"))).isEqualTo(starts);
    assertThat(instant(bounded.json().get("endsAt"))).isEqualTo(ends);
    Map<String, Object> over = claim(instance(0), "over", "late").json();
    assertThat(over).containsEntry("type", PROBLEM + "campaign-not-open").doesNotContainKey("startsAt");
    assertThat(instant(over.get("endsAt"))).isEqualTo(now.minus(1, ChronoUnit.HOURS));
    assertThat(backend().snapshot()).as("a refused claim writes nothing").isEqualTo(before);
  }

  @Test
  void unknownMalformedAndUnauthenticatedRequestsAreProblemsAndCostNoStockRead() {
    CampaignStatusService service = instances.get(0).context().getBean(CampaignStatusService.class);
    long reads = service.stockReadCount();
    // campaigns other tests of this class polled; these may expire meanwhile, never grow by a miss
    long cached = service.cachedCampaigns();
    for (int i = 0; i < 30; i++) {
      assertProblem(status(instance(0), "no-such-" + i, Tokens.user("u")), 404, "campaign-not-found");
    }
    assertProblem(status(instance(0), "bad%20id!", Tokens.user("u")), 400, "invalid-request");
    assertProblem(status(instance(0), "x".repeat(65), Tokens.user("u")), 400, "invalid-request");
    Api.createCampaign(instance(0), "guarded", 1, 1);
    assertProblem(status(instance(0), "guarded", null), 401, "unauthorized");
    assertProblem(status(instance(0), "guarded", "not-a-jwt"), 401, "unauthorized");
    assertThat(service.stockReadCount()).as("unknown ids read no stock").isEqualTo(reads);
    assertThat(service.cachedCampaigns()).as("unknown ids are not kept").isLessThanOrEqualTo(cached);
  }

  @Test
  void tagsAndNotModified() throws InterruptedException {
    Api.createCampaign(instance(0), "tagged", 1, 5);
    String token = Tokens.user("poller");
    Api.Response first = status(instance(0), "tagged", token);
    String tag = first.header("ETag");
    assertThat(tag).matches("W/\"[0-9a-f]+\"");
    assertThat(first.header("Cache-Control")).isEqualTo("private, max-age=1");

    for (String ifNoneMatch : List.of(tag, tag.substring(2), "\"other\", " + tag, "*")) {
      Api.Response same = conditional(instance(0), "tagged", token, ifNoneMatch);
      assertThat(same.status()).as(ifNoneMatch).isEqualTo(304);
      assertThat(same.body()).isEmpty();
      assertThat(same.header("ETag")).isEqualTo(tag);
      assertThat(same.header("Cache-Control")).isEqualTo("private, max-age=1");
    }
    for (String noMatch : List.of("W/\"0123\"", "\"", "W/", ",,,", "W/\"" + "f".repeat(4000) + "\"")) {
      assertThat(conditional(instance(0), "tagged", token, noMatch).status()).as(noMatch).isEqualTo(200);
    }
    // Another instance tags the same answer alike.
    assertThat(conditional(instance(1), "tagged", token, tag).status()).isEqualTo(304);

    assertThat(Claimer.claimUntilFinal(instance(2), "tagged", "claimer"))
        .matches(Claimer.Result::tookACoupon);
    Api.Response changed = conditional(instance(0), "tagged", token, tag);
    for (int i = 0; i < 100 && changed.status() == 304; i++) {
      Thread.sleep(100); // the stock is read again within a second
      changed = conditional(instance(0), "tagged", token, tag);
    }
    assertThat(changed.status()).isEqualTo(200);
    assertThat(changed.json()).containsEntry("remaining", 4);
    assertThat(changed.header("ETag")).isNotEqualTo(tag);
  }

  /** G6: a store that fails answers 503 with Retry-After, and the next request reads again. */
  @Test
  void aStoreThatFailsIsUnavailableWithRetryAfter() {
    Api.createCampaign(instance(0), "outage", 1, 2);
    try (ServiceInstance doomed = startInstance(backend().cutOffProperties())) {
      backend().cutOff(doomed);
      for (int i = 0; i < 2; i++) {
        Api.Response answer = status(doomed.url(), "outage", Tokens.user("u"));
        assertProblem(answer, 503, "store-unavailable");
        assertThat(answer.header("Retry-After")).isNotNull();
      }
      // A failed read leaves the cache when its future completes, which may come just after the
      // answer: nothing stays cached for long.
      awaitCachedAtMost(doomed.context().getBean(CampaignStatusService.class), 0);
    }
  }

  /**
   * A reading older than {@code stock-max-age} is answered at once while it is read again in the
   * background, and is never served once it is twice that old. The store stops answering right
   * after the first read: a poll one and a half max-ages later still gets 200 with the first
   * reading (a poll that waited for the store would get 503), and one after twice the max-age gets
   * 503.
   */
  @Test
  void aReadingIsServedWhileItIsReadAgainButNotPastTwiceTheMaxAge() throws InterruptedException {
    Api.createCampaign(instance(0), "stale", 1, 3);
    String token = Tokens.user("poller");
    try (ServiceInstance polled = startInstance(Map.of("flashclaim.status.stock-max-age", "2s"))) {
      Api.Response first = status(polled.url(), "stale", token);
      assertThat(first.status()).as(first.toString()).isEqualTo(200);
      Instant readAt = instant(first.json().get("remainingAt"));
      assertThat(readAt).isBeforeOrEqualTo(instant(first.json().get("serverTime")));
      backend().cutOff(polled);

      sleepUntil(readAt.plusMillis(3_000));
      for (int i = 0; i < 3; i++) {
        Api.Response stale = status(polled.url(), "stale", token);
        assertThat(stale.status()).as(stale.toString()).isEqualTo(200);
        assertThat(stale.json()).containsEntry("remaining", 3);
        assertThat(instant(stale.json().get("remainingAt"))).isEqualTo(readAt);
        assertThat(stale.header("ETag")).isEqualTo(first.header("ETag"));
      }

      sleepUntil(readAt.plusMillis(4_100));
      assertProblem(status(polled.url(), "stale", token), 503, "store-unavailable");
    }
  }

  private static void sleepUntil(Instant when) throws InterruptedException {
    long millis = java.time.Duration.between(Instant.now(), when).toMillis();
    if (millis > 0) {
      Thread.sleep(millis);
    }
  }

  /** Until the instance holds at most {@code n} campaigns (at most 5 s), then asserts it. */
  private static void awaitCachedAtMost(CampaignStatusService statuses, long n) {
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (statuses.cachedCampaigns() > n && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    assertThat(statuses.cachedCampaigns()).isLessThanOrEqualTo(n);
  }

  @Test
  void cacheSettingsAreConfigurableAndBounded() {
    Map<String, Object> small = new HashMap<>();
    small.put("flashclaim.status.max-campaigns", "2");
    small.put("flashclaim.status.cache-scope", "public");
    small.put("flashclaim.status.max-age", "5s");
    try (ServiceInstance configured = startInstance(small)) {
      for (int i = 0; i < 4; i++) {
        Api.createCampaign(instance(0), "bounded-" + i, 1, 1);
        Api.Response answer = status(configured.url(), "bounded-" + i, Tokens.user("u"));
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.header("Cache-Control")).isEqualTo("public, max-age=5");
      }
      // Caffeine evicts once a read's future has completed, which may come just after its
      // answer: the bound holds as soon as the last completion has been seen.
      awaitCachedAtMost(configured.context().getBean(CampaignStatusService.class), 2);
    }
    assertThatThrownBy(() -> startInstance(Map.of("flashclaim.status.cache-scope", "shared")).close())
        .hasStackTraceContaining("flashclaim.status.cache-scope");
  }

  /**
   * However many clients poll, each instance reads a campaign's stock at most once per second:
   * over T seconds at most ceil(T) + 1 reads per campaign and instance.
   */
  @Test
  void pollingCostsAtMostOneStockReadPerCampaignSecondAndInstance() throws Exception {
    List<String> campaigns = List.of("polled-a", "polled-b");
    campaigns.forEach(c -> Api.createCampaign(instance(0), c, 1, 30));
    long[] readsBefore = new long[INSTANCES];
    long[][] storeBefore = new long[INSTANCES][campaigns.size()];
    for (int i = 0; i < INSTANCES; i++) {
      readsBefore[i] = statuses(i).stockReadCount();
      for (int c = 0; c < campaigns.size(); c++) {
        storeBefore[i][c] = storeStockReads(instances.get(i), campaigns.get(c)).orElse(0);
      }
    }
    int clients = 48;
    int pollsEach = 40;
    long started = System.nanoTime();
    List<List<Integer>> seen =
        runAll(
            clients,
            client ->
                () -> {
                  String token = Tokens.user("phone-" + client);
                  List<Integer> remaining = new ArrayList<>();
                  for (int poll = 0; poll < pollsEach; poll++) {
                    if (client < 6 && poll % 10 == 0) { // a few claims meanwhile: the stock moves
                      Claimer.claimUntilFinal(instance(poll), campaigns.get(0), "buyer-" + client + "-" + poll);
                    }
                    Api.Response answer =
                        status(instance(client + poll), campaigns.get((client + poll) % 2), token);
                    assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
                    remaining.add(((Number) answer.json().get("remaining")).intValue());
                  }
                  return remaining;
                });
    double seconds = (System.nanoTime() - started) / 1e9;
    long allowedPerCampaign = (long) Math.ceil(seconds) + 1;

    assertThat(seen.stream().mapToInt(List::size).sum()).isEqualTo(clients * pollsEach);
    assertThat(seen.stream().flatMap(List::stream)).allMatch(r -> r >= 0 && r <= 30);
    for (int i = 0; i < INSTANCES; i++) {
      long reads = statuses(i).stockReadCount() - readsBefore[i];
      assertThat(reads)
          .as("instance %d read stocks %d times in %.1f s", i, reads, seconds)
          .isPositive()
          .isLessThanOrEqualTo(allowedPerCampaign * campaigns.size());
      for (int c = 0; c < campaigns.size(); c++) {
        OptionalLong atStore = storeStockReads(instances.get(i), campaigns.get(c));
        if (atStore.isPresent()) {
          long stockReads = atStore.getAsLong() - storeBefore[i][c];
          assertThat(stockReads)
              .as("instance %d, %s: %d stock reads at the store in %.1f s", i, campaigns.get(c), stockReads, seconds)
              .isLessThanOrEqualTo(allowedPerCampaign);
        }
      }
    }
    assertStoreConsistent(campaigns.get(0), 6 * (pollsEach / 10));
  }

  private CampaignStatusService statuses(int instance) {
    return instances.get(instance).context().getBean(CampaignStatusService.class);
  }

  private static Api.Response status(URI instance, String campaign, String token) {
    return Api.get(instance, "/v1/campaigns/" + campaign, token);
  }

  private static Api.Response conditional(URI instance, String campaign, String token, String ifNoneMatch) {
    HttpRequest request =
        Api.request(instance, "/v1/campaigns/" + campaign, token).header("If-None-Match", ifNoneMatch).GET().build();
    return Api.send(request);
  }

  private static Api.Response claim(URI instance, String campaign, String user) {
    return Api.post(instance, "/v1/campaigns/" + campaign + "/claims", Tokens.user(user), null);
  }

  private static Instant instant(Object value) {
    return value == null ? null : Instant.parse((String) value);
  }

  private static void assertProblem(Api.Response response, int status, String type) {
    assertThat(response.status()).as(response.toString()).isEqualTo(status);
    assertThat(response.contentType()).startsWith("application/problem+json");
    assertThat(response.json()).containsEntry("type", PROBLEM + type).containsEntry("status", status);
  }

  /** A campaign's window (null bounds: open-ended) and its pool. */
  private record Window(Instant startsAt, Instant endsAt, int coupons) {}
}
