package flashclaim.startup;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.campaign.CampaignId;
import flashclaim.testing.Api;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.Tokens;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The start-up warm-up, through HTTP, on each store: readiness waits for it (and for no more than
 * its bound), liveness does not; what it leaves in the store is its coupons and their claims; its
 * scratch campaign is nobody else's to see or reach; off, it costs nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class StartupWarmUpContract {
  static final String CAMPAIGN = StartupWarmUp.CAMPAIGN_ID;

  protected abstract StoreBackend backend();

  /** The store's schema, as an instance creates it (PostgreSQL's migrations), before any reset. */
  @BeforeAll
  void schema() {
    start(Map.of()).close();
  }

  @BeforeEach
  void reset() {
    backend().reset();
  }

  /** An instance on this store with {@code properties}, health answered without a cache. */
  ServiceInstance start(Map<String, Object> properties) {
    Map<String, Object> all = new HashMap<>(backend().properties());
    all.put("flashclaim.health.cache-ttl", "0s");
    all.putAll(properties);
    return ServiceInstance.start(all);
  }

  @Test
  void readinessIsDownUntilTheWarmUpHasSentItsRequestsThenUp() throws Exception {
    try (ServiceInstance service =
        start(
            Map.of(
                "flashclaim.warm-up.enabled", "true",
                "flashclaim.warm-up.requests", "400",
                "flashclaim.warm-up.claims", "20",
                "flashclaim.warm-up.max-time", "120s",
                "flashclaim.warm-up.quiet-answers", "0"))) {
      Api.Response first = Api.get(service.url(), "/health/readiness", Tokens.admin());
      Api.Response live = Api.get(service.url(), "/health/liveness", null);
      assertThat(live.status()).as(live.body()).isEqualTo(200);
      Map<String, Object> done = awaitReady(service, Duration.ofSeconds(120));
      // The first probe came before 400 requests through HTTP and the store could be answered.
      assertThat(first.status()).as(first.body()).isEqualTo(503);
      assertThat(first.body()).contains("warm-up");

      assertThat(done).containsEntry("state", "DONE").containsEntry("sent", 400);
      @SuppressWarnings("unchecked")
      Map<String, Object> answers = (Map<String, Object>) done.get("answers");
      // 150 new users for 20 coupons: every coupon is claimed, the rest sold out; 50 claims
      // without a token (401, answered without the store), 50 on an absent campaign (404), 50
      // holdings and 50 status reads (200). A loaded machine may answer any that needs the store
      // 503 (and a claim answered 503 may still have landed): those counts are bounds.
      assertThat(answers.values().stream().mapToInt(n -> (Integer) n).sum()).isEqualTo(400);
      assertThat((Integer) answers.get("201")).isBetween(1, 20);
      assertThat((Integer) answers.get("404")).isBetween(1, 50);
      assertThat((Integer) answers.get("200")).isGreaterThanOrEqualTo(1);
      assertThat(answers)
          .containsEntry("401", 50)
          .containsKeys("410")
          .doesNotContainKeys("500", "failed");
      // What it leaves in the store: its 20 coupons, each claimed once.
      assertThat(backend().coupons(CAMPAIGN)).hasSize(20);
      assertThat(backend().claims(CAMPAIGN)).hasSize(20);

      assertUnreachable(service);
    }
  }

  @Test
  void readinessWaitsForTheWarmUpNoLongerThanItsMaxTime() {
    long started = System.nanoTime();
    try (ServiceInstance service =
        start(
            Map.of(
                "flashclaim.warm-up.enabled", "true",
                "flashclaim.warm-up.requests", "100000000",
                "flashclaim.warm-up.max-time", "6s",
                "flashclaim.warm-up.quiet-answers", "0"))) {
      Api.Response first = Api.get(service.url(), "/health/readiness", null);
      assertThat(first.status()).as(first.body()).isEqualTo(503);
      assertThat(Api.get(service.url(), "/health/liveness", null).status()).isEqualTo(200);
      // While it runs, the scratch campaign is out of reach too.
      assertUnreachable(service);
      Map<String, Object> cut = awaitReady(service, Duration.ofSeconds(60));
      assertThat(cut).containsEntry("state", "CUT_SHORT");
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofSeconds(6));
      assertUnreachable(service);
    }
  }

  @Test
  void theWarmUpEndsOnceTheJitIsQuietOnItsRequests() {
    // Any compiling counts as quiet here: the warm-up ends after its first 20 answers, long before
    // its requests or its time would end it.
    try (ServiceInstance service =
        start(
            Map.of(
                "flashclaim.warm-up.enabled", "true",
                "flashclaim.warm-up.requests", "100000000",
                "flashclaim.warm-up.max-time", "120s",
                "flashclaim.warm-up.quiet-answers", "20",
                "flashclaim.warm-up.quiet-compile-time", "1d"))) {
      Map<String, Object> warm = awaitReady(service, Duration.ofSeconds(60));
      assertThat(warm).containsEntry("state", "WARM");
      assertThat((Integer) warm.get("sent")).isBetween(20, 100_000_000 - 1);
      assertThat(((Number) warm.get("tookMillis")).longValue()).isLessThan(60_000);
      assertUnreachable(service);
    }
  }

  @Test
  void readinessTurnsUpAsTheWarmUpEndsThoughItsDownAnswerIsCached() {
    try (ServiceInstance service =
        start(
            Map.of(
                "flashclaim.health.cache-ttl", "10m",
                "flashclaim.warm-up.enabled", "true",
                "flashclaim.warm-up.requests", "100000000",
                "flashclaim.warm-up.max-time", "3s"))) {
      // Cached for 10 minutes, unless the end of the warm-up clears it.
      Api.Response first = Api.get(service.url(), "/health/readiness", null);
      assertThat(first.status()).as(first.body()).isEqualTo(503);
      Api.awaitReady(service.url(), null, Duration.ofSeconds(60));
    }
  }

  @Test
  void offReadinessDoesNotWaitAndTheCampaignStaysReserved() {
    try (ServiceInstance service = start(Map.of())) {
      Api.Response ready = Api.get(service.url(), "/health/readiness", Tokens.admin());
      assertThat(ready.status()).as(ready.body()).isEqualTo(200);
      assertThat(component(details(ready), "warm-up"))
          .containsEntry("status", "UP")
          .containsEntry("details", Map.of("state", "OFF"));
      assertUnreachable(service);
      Api.Response created =
          Api.post(
              service.url(),
              "/v1/admin/campaigns",
              Tokens.admin(),
              "{\"id\":\"" + CampaignId.RESERVED_PREFIX + "mine\",\"name\":\"n\"}");
      assertThat(created.status()).as(created.body()).isEqualTo(400);
    }
  }

  /** The scratch campaign, as strangers, users and admins see it: nowhere. */
  static void assertUnreachable(ServiceInstance service) {
    String base = "/v1/campaigns/" + CAMPAIGN;
    String admin = "/v1/admin/campaigns/" + CAMPAIGN;
    assertThat(Api.post(service.url(), base + "/claims", Tokens.user("stranger"), null).status())
        .isEqualTo(404);
    assertThat(Api.get(service.url(), base + "/claims/me", Tokens.user("stranger")).status())
        .isEqualTo(404);
    assertThat(Api.get(service.url(), base, null).status()).isEqualTo(404);
    for (String path : new String[] {admin, admin + "/audit", admin + "/live", admin + "/changes"}) {
      Api.Response response = Api.get(service.url(), path, Tokens.admin());
      assertThat(response.status()).as(path + ": " + response.body()).isEqualTo(404);
    }
    // A guessed pass is no pass, during the warm-up or after it.
    HttpRequest guessed =
        Api.request(service.url(), base + "/claims", Tokens.user("stranger"))
            .header(WarmUpPass.HEADER, "0".repeat(64))
            .POST(HttpRequest.BodyPublishers.noBody())
            .build();
    assertThat(Api.send(guessed).status()).isEqualTo(404);
    Api.Response list = Api.get(service.url(), "/v1/admin/campaigns?limit=100", Tokens.admin());
    assertThat(list.status()).isEqualTo(200);
    assertThat(list.body()).doesNotContain(CampaignId.RESERVED_PREFIX);
    Api.Response live = Api.get(service.url(), "/v1/admin/live", Tokens.admin());
    assertThat(live.body()).doesNotContain(CampaignId.RESERVED_PREFIX);
    assertThat(Api.get(service.url(), "/prometheus", null).body())
        .doesNotContain(CampaignId.RESERVED_PREFIX);
  }

  /** Polls readiness until it answers 200; the warm-up's details then. */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> awaitReady(ServiceInstance service, Duration within) {
    Api.Response ready = Api.awaitReady(service.url(), Tokens.admin(), within);
    return (Map<String, Object>) component(details(ready), "warm-up").get("details");
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> details(Api.Response health) {
    return (Map<String, Object>) health.json().get("details");
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> component(Map<String, Object> details, String name) {
    return (Map<String, Object>) details.get(name);
  }
}
