package flashclaim.startup;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CampaignService;
import flashclaim.testing.Api;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.TestEmulator;
import flashclaim.testing.Tokens;
import java.net.ServerSocket;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The start-up warm-up, through HTTP: readiness waits for it (and for no more than its bound),
 * liveness does not; its scratch campaign is nobody else's to see or reach; off, it costs nothing.
 */
class StartupWarmUpTest {
  private static final String CAMPAIGN = StartupWarmUp.CAMPAIGN_ID;

  @BeforeEach
  void reset() {
    TestEmulator.reset();
  }

  @Test
  void readinessIsDownUntilTheWarmUpHasSentItsRequestsThenUp() throws Exception {
    try (ServiceInstance service =
        ServiceInstance.start(
            Map.of(
                "flashclaim.warm-up.enabled", "true",
                "flashclaim.warm-up.requests", "400",
                "flashclaim.warm-up.claims", "20",
                "flashclaim.warm-up.max-time", "120s",
                "flashclaim.health.cache-ttl", "0s"))) {
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
      // 150 new users for 20 coupons: every coupon is claimed (a claim that a loaded machine
      // answers 503 may still have landed: 201s are at most 20), the rest sold out; 50 of each
      // cheap refusal; 50 holdings and 50 status reads answered 200.
      assertThat(answers.values().stream().mapToInt(n -> (Integer) n).sum()).isEqualTo(400);
      assertThat((Integer) answers.get("201")).isBetween(1, 20);
      assertThat(answers)
          .containsEntry("401", 50)
          .containsEntry("404", 50)
          .hasEntrySatisfying("200", n -> assertThat((Integer) n).isGreaterThanOrEqualTo(100))
          .containsKeys("410")
          .doesNotContainKeys("500", "failed");
      CampaignService campaigns = service.context().getBean(CampaignService.class);
      assertThat(campaigns.stock(new CampaignId(CAMPAIGN)).orElseThrow().stock().assigned())
          .isEqualTo(20);

      assertUnreachable(service);
    }
  }

  @Test
  void readinessWaitsForTheWarmUpNoLongerThanItsMaxTime() {
    long started = System.nanoTime();
    try (ServiceInstance service =
        ServiceInstance.start(
            Map.of(
                "flashclaim.warm-up.enabled", "true",
                "flashclaim.warm-up.requests", "100000000",
                "flashclaim.warm-up.max-time", "6s",
                "flashclaim.health.cache-ttl", "0s"))) {
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
  void aStoreThatDoesNotAnswerKeepsReadinessDownPastTheWarmUpsBound() throws Exception {
    int deadPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      deadPort = socket.getLocalPort();
    }
    try (ServiceInstance service =
        ServiceInstance.start(
            Map.of(
                "flashclaim.warm-up.enabled", "true",
                "flashclaim.warm-up.max-time", "2s",
                "flashclaim.health.cache-ttl", "0s",
                "flashclaim.firestore.emulator-host", "127.0.0.1:" + deadPort,
                "flashclaim.firestore.call-timeout", "500ms"))) {
      Thread.sleep(4_000);
      Api.Response ready = Api.get(service.url(), "/health/readiness", Tokens.admin());
      assertThat(ready.status()).as(ready.body()).isEqualTo(503);
      Map<String, Object> details = details(ready);
      assertThat(component(details, "warm-up")).containsEntry("status", "UP");
      assertThat(component(details, "firestore")).containsEntry("status", "DOWN");
      assertThat(Api.get(service.url(), "/health/liveness", null).status()).isEqualTo(200);
    }
  }

  @Test
  void offReadinessDoesNotWaitAndTheCampaignStaysReserved() {
    try (ServiceInstance service = ServiceInstance.start(Map.of("flashclaim.health.cache-ttl", "0s"))) {
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
  private static void assertUnreachable(ServiceInstance service) {
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
  private static Map<String, Object> details(Api.Response health) {
    return (Map<String, Object>) health.json().get("details");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> component(Map<String, Object> details, String name) {
    return (Map<String, Object>) details.get(name);
  }
}
