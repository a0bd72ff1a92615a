package flashclaim.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import flashclaim.testing.Api;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.TestEmulator;
import flashclaim.testing.Tokens;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The dashboard's data route {@code GET /v1/admin/campaigns/{id}/live} through two instances on
 * one emulator, without a browser: admin only, bad input as problem+json, the store-wide stock the
 * same on both instances, the outcome counts of each instance its own and exact, the stock cache.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LiveRouteTest {
  static final String PROBLEM = "urn:flashclaim:problem:";
  /** Instances read the stock on every poll here, so each value is exact at once. */
  static final Map<String, Object> UNCACHED =
      Map.of("flashclaim.dashboard.stock-cache-ttl", "0s", "flashclaim.claim.deadline", "30s");

  private ServiceInstance a;
  private ServiceInstance b;

  @BeforeAll
  void start() {
    a = ServiceInstance.start(UNCACHED);
    b = ServiceInstance.start(UNCACHED);
  }

  @AfterAll
  void stop() {
    a.close();
    b.close();
  }

  @BeforeEach
  void reset() {
    TestEmulator.reset();
  }

  @Test
  void dataNeedsAnAdminTokenWhileThePageIsPublic() {
    Api.createCampaign(a.url(), "guarded", 1, 3);
    String forged = Tokens.mint("admin", List.of("admin"), Duration.ofHours(1), "forged-secret-not-the-services-0123456789abcdef");
    String expired = Tokens.mint("admin", List.of("admin"), Duration.ofHours(-1), Tokens.SECRET);
    for (String path : List.of("/v1/admin/campaigns/guarded/live", "/v1/admin/live")) {
      assertProblem(Api.get(a.url(), path, null), 401, "unauthorized");
      assertProblem(Api.get(a.url(), path, forged), 401, "unauthorized");
      assertProblem(Api.get(a.url(), path, expired), 401, "unauthorized");
      assertProblem(Api.get(a.url(), path, "not-a-jwt"), 401, "unauthorized");
      assertProblem(Api.get(a.url(), path, Tokens.user("alice")), 403, "forbidden");
      assertThat(Api.get(a.url(), path, Tokens.admin()).status()).isEqualTo(200);
    }
    for (String file : List.of("index.html", "dashboard.js", "dashboard.css")) {
      Api.Response page = Api.get(a.url(), "/dashboard/" + file, null);
      assertThat(page.status()).as(file).isEqualTo(200);
      assertThat(page.body()).isNotBlank();
    }
    Api.Response index = Api.get(a.url(), "/dashboard/index.html", null);
    assertThat(index.contentType()).startsWith("text/html");
    assertThat(index.header("Content-Security-Policy")).contains("script-src 'self'", "frame-ancestors 'none'");
    assertThat(Api.get(a.url(), "/dashboard", null).status()).isEqualTo(200);
  }

  @Test
  void badOrUnknownCampaignIdsAreProblems() {
    assertProblem(live(a, "no-such-campaign"), 404, "campaign-not-found");
    assertProblem(live(a, "bad%20id!"), 400, "invalid-request");
    assertProblem(live(a, "x".repeat(65)), 400, "invalid-request");
    assertProblem(Api.get(a.url(), "/v1/admin/campaigns/a/b/live", Tokens.admin()), 404, "not-found");
  }

  @Test
  void figuresMoveWithClaimsStockStoreWideOutcomesPerInstance() {
    Api.createCampaign(a.url(), "sale", 1, 10);
    Map<String, Object> before = live(a, "sale").json();
    assertThat(stock(before)).containsEntry("total", 10).containsEntry("assigned", 0).containsEntry("remaining", 10);
    assertThat(outcomes(before)).containsOnly(entriesOf(0, 0, 0, 0, 0, 0));
    assertThat(instance(before).get("countingSince")).isNull();
    assertThat(((Map<?, ?>) before.get("campaign")).get("window")).isEqualTo("open");

    for (int i = 0; i < 4; i++) {
      assertThat(claim(a, "sale", "a-user-" + i)).isEqualTo(201);
    }
    assertThat(claim(a, "sale", "a-user-0")).isEqualTo(200); // a repeat: the held coupon
    for (int i = 0; i < 2; i++) {
      assertThat(claim(b, "sale", "b-user-" + i)).isEqualTo(201);
    }

    Map<String, Object> onA = live(a, "sale").json();
    Map<String, Object> onB = live(b, "sale").json();
    for (Map<String, Object> view : List.of(onA, onB)) {
      assertThat(stock(view)).containsEntry("total", 10).containsEntry("assigned", 6).containsEntry("remaining", 4);
    }
    assertThat(outcomes(onA)).containsOnly(entriesOf(4, 1, 0, 0, 0, 0));
    assertThat(outcomes(onB)).containsOnly(entriesOf(2, 0, 0, 0, 0, 0));
    assertThat(instance(onA).get("countingSince")).isNotNull();

    for (int i = 2; i < 6; i++) {
      assertThat(claim(b, "sale", "b-user-" + i)).isEqualTo(201);
    }
    assertThat(claim(a, "sale", "late")).isEqualTo(410);
    Map<String, Object> drained = live(a, "sale").json();
    assertThat(stock(drained)).containsEntry("assigned", 10).containsEntry("remaining", 0);
    assertThat(outcomes(drained)).containsOnly(entriesOf(4, 1, 1, 0, 0, 0));
    assertThat(outcomes(live(b, "sale").json())).containsOnly(entriesOf(6, 0, 0, 0, 0, 0));

    Map<String, Object> active = Api.get(a.url(), "/v1/admin/live", Tokens.admin()).json();
    assertThat(((List<?>) active.get("campaigns")).stream().map(c -> (Object) ((Map<?, ?>) c).get("id")))
        .containsExactly("sale");
  }

  @Test
  void ratesOfTheInstanceAndOfTheStore() {
    Api.createCampaign(a.url(), "rates", 1, 20);
    Map<String, Object> first = live(a, "rates").json();
    assertThat(stock(first).get("assignedPerSecond")).isNull(); // one reading: no rate yet
    Instant firstRead = Instant.parse((String) stock(first).get("readAt"));
    for (int i = 0; i < 5; i++) {
      assertThat(claim(a, "rates", "user-" + i)).isEqualTo(201);
    }
    // The instance's rates count complete seconds, and the store's needs readings a second apart:
    // poll (bounded) until the claims' seconds have ended and a second has passed since the first.
    Map<String, Object> later = live(a, "rates").json();
    long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while ((((Number) instance(later).get("claimsPerSecond")).doubleValue() < 0.5
            || stock(later).get("assignedPerSecond") == null)
        && System.nanoTime() < until) {
      later = live(a, "rates").json();
    }
    long window = ((Number) later.get("rateWindowSeconds")).longValue();
    assertThat(window).isEqualTo(10);
    assertThat(((Number) instance(later).get("claimsPerSecond")).doubleValue()).isEqualTo(5.0 / window);
    assertThat(((Number) instance(later).get("assignedPerSecond")).doubleValue()).isEqualTo(5.0 / window);
    // Store-wide: coupons assigned between the first and the last stock reading over their span.
    Instant lastRead = Instant.parse((String) stock(later).get("readAt"));
    double span = Duration.between(firstRead, lastRead).toMillis() / 1000.0;
    assertThat(span).isGreaterThanOrEqualTo(1.0);
    assertThat(((Number) stock(later).get("assignedPerSecond")).doubleValue()).isCloseTo(5 / span, within(1e-9));
  }

  @Test
  void stockIsCachedPerInstance() {
    Api.createCampaign(a.url(), "cached", 1, 5);
    try (ServiceInstance cached = ServiceInstance.start(Map.of("flashclaim.dashboard.stock-cache-ttl", "1h"))) {
      Map<String, Object> first = live(cached, "cached").json();
      assertThat(stock(first)).containsEntry("remaining", 5);
      assertThat(claim(a, "cached", "someone")).isEqualTo(201);
      Map<String, Object> again = live(cached, "cached").json();
      assertThat(stock(again)).containsEntry("remaining", 5).containsEntry("readAt", stock(first).get("readAt"));
      assertThat(stock(live(a, "cached").json())).containsEntry("remaining", 4);
    }
  }

  private static Api.Response live(ServiceInstance instance, String campaign) {
    return Api.get(instance.url(), "/v1/admin/campaigns/" + campaign + "/live", Tokens.admin());
  }

  private static int claim(ServiceInstance instance, String campaign, String user) {
    Api.Response response =
        Api.post(instance.url(), "/v1/campaigns/" + campaign + "/claims", Tokens.user(user), null);
    return response.status();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> stock(Map<String, Object> view) {
    return (Map<String, Object>) view.get("stock");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> instance(Map<String, Object> view) {
    return (Map<String, Object>) view.get("instance");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> outcomes(Map<String, Object> view) {
    return (Map<String, Object>) instance(view).get("outcomes");
  }

  @SuppressWarnings("unchecked")
  private static Map.Entry<String, Object>[] entriesOf(
      int claimed, int alreadyHeld, int soldOut, int notOpen, int busy, int storeFailed) {
    return new Map.Entry[] {
      Map.entry("claimed", claimed),
      Map.entry("alreadyHeld", alreadyHeld),
      Map.entry("soldOut", soldOut),
      Map.entry("notOpen", notOpen),
      Map.entry("busy", busy),
      Map.entry("storeFailed", storeFailed)
    };
  }

  private static void assertProblem(Api.Response response, int status, String type) {
    assertThat(response.status()).as(response.toString()).isEqualTo(status);
    assertThat(response.contentType()).startsWith("application/problem+json");
    assertThat(response.json()).containsEntry("type", PROBLEM + type).containsEntry("status", status);
  }
}
