package flashclaim.http.admin;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.Api;
import flashclaim.testing.Claimer;
import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.Tokens;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What of campaign management lives in HTTP, on one instance: the list with status and stock and
 * its cursor, the merge patch with its ETag and If-Match, the change records, the roles (anonymous
 * 401, a user 403), and malformed bodies, ids, limits and cursors answered 400 problem+json; every
 * refusal changes nothing (same version, no new record). The rules themselves are tested on both
 * stores by {@code CampaignStoreContract}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CampaignRoutesTest {
  private static final String BASE = "/v1/admin/campaigns";
  private static final String PROBLEM = "application/problem+json";

  private final StoreBackend backend = new FirestoreBackend();
  private ServiceInstance service;
  private URI url;

  @BeforeAll
  void start() {
    service = ServiceInstance.start(backend.properties());
    url = service.url();
  }

  @AfterAll
  void stop() {
    service.close();
  }

  @BeforeEach
  void reset() {
    backend.reset();
  }

  private static Api.Response patch(URI url, String id, String contentType, String body, String ifMatch) {
    HttpRequest.Builder request =
        Api.request(url, BASE + "/" + id, Tokens.admin())
            .method("PATCH", HttpRequest.BodyPublishers.ofString(body))
            .header("Content-Type", contentType);
    if (ifMatch != null) {
      request.header("If-Match", ifMatch);
    }
    return Api.send(request.build());
  }

  private Api.Response patch(String id, String body) {
    return patch(url, id, "application/merge-patch+json", body, null);
  }

  private Map<String, Object> campaign(String id) {
    Api.Response read = Api.get(url, BASE + "/" + id, Tokens.admin());
    assertThat(read.status()).as(read.body()).isEqualTo(200);
    return read.json();
  }

  @SuppressWarnings("unchecked")
  private List<Map<String, Object>> changes(String id) {
    Api.Response read = Api.get(url, BASE + "/" + id + "/changes?limit=100", Tokens.admin());
    assertThat(read.status()).as(read.body()).isEqualTo(200);
    return (List<Map<String, Object>>) read.json().get("changes");
  }

  private static void assertProblem(Api.Response response, int status, String type) {
    assertThat(response.status()).as(response.body()).isEqualTo(status);
    assertThat(response.contentType()).startsWith(PROBLEM);
    assertThat(response.json().get("type")).isEqualTo("urn:flashclaim:problem:" + type);
  }

  @Test
  @SuppressWarnings("unchecked")
  void theListIsNewestFirstWithStatusAndStockAndPagesByCursor() throws Exception {
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    Api.createCampaign(url, "list-ended", 1, 2, now.minus(2, ChronoUnit.DAYS), now.minus(1, ChronoUnit.DAYS));
    Thread.sleep(5);
    Api.createCampaign(url, "list-scheduled", 1, 2, now.plus(1, ChronoUnit.DAYS), null);
    Thread.sleep(5);
    Api.createCampaign(url, "list-sold-out", 1, 0);
    Thread.sleep(5);
    Api.createCampaign(url, "list-open", 1, 3);
    assertThat(Claimer.claimUntilFinal(url, "list-open", "lister"))
        .matches(Claimer.Result::tookACoupon);
    Thread.sleep(5);
    Api.createCampaign(url, "list-paused", 1, 1);
    assertThat(patch("list-paused", "{\"paused\":true}").status()).isEqualTo(200);

    List<Map<String, Object>> listed = new ArrayList<>();
    String next = null;
    int pages = 0;
    do {
      Api.Response page =
          Api.get(url, BASE + "?limit=2" + (next == null ? "" : "&cursor=" + next), Tokens.admin());
      assertThat(page.status()).as(page.body()).isEqualTo(200);
      List<Map<String, Object>> campaigns = (List<Map<String, Object>>) page.json().get("campaigns");
      assertThat(campaigns).hasSizeLessThanOrEqualTo(2);
      listed.addAll(campaigns);
      next = (String) page.json().get("next");
      pages++;
    } while (next != null);

    assertThat(pages).isEqualTo(3);
    assertThat(listed)
        .extracting(c -> c.get("id"), c -> c.get("status"))
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("list-paused", "paused"),
            org.assertj.core.groups.Tuple.tuple("list-open", "open"),
            org.assertj.core.groups.Tuple.tuple("list-sold-out", "sold-out"),
            org.assertj.core.groups.Tuple.tuple("list-scheduled", "scheduled"),
            org.assertj.core.groups.Tuple.tuple("list-ended", "ended"));
    assertThat((Map<String, Object>) listed.get(1).get("stock"))
        .containsEntry("total", 3)
        .containsEntry("assigned", 1)
        .containsEntry("remaining", 2);
    // the default page holds them all
    Api.Response all = Api.get(url, BASE, Tokens.admin());
    assertThat((List<?>) all.json().get("campaigns")).hasSize(5);
    assertThat(all.json().get("next")).isNull();
  }

  @Test
  void aPatchChangesTheCampaignRecordsWhoAndWhatAndHonoursIfMatch() {
    Api.createCampaign(url, "patched", 1, 2);
    Api.Response read = Api.get(url, BASE + "/patched", Tokens.admin());
    assertThat(read.header("ETag")).isEqualTo("\"0\"");

    Api.Response stale = patch(url, "patched", "application/json", "{\"name\":\"x\"}", "\"7\"");
    assertProblem(stale, 412, "version-mismatch");

    Api.Response changed =
        patch(
            url,
            "patched",
            "application/merge-patch+json; charset=utf-8",
            "{\"name\":\"Renamed\",\"perUserLimit\":3,\"endsAt\":\"2999-01-01T00:00:00Z\"}",
            "\"0\"");
    assertThat(changed.status()).as(changed.body()).isEqualTo(200);
    assertThat(changed.header("ETag")).isEqualTo("\"1\"");
    assertThat(changed.json())
        .containsEntry("name", "Renamed")
        .containsEntry("perUserLimit", 3)
        .containsEntry("endsAt", "2999-01-01T00:00:00Z")
        .containsEntry("version", 1)
        .containsEntry("status", "open");
    // plain JSON is taken too (with a charset as well); null removes the bound
    Api.Response unbounded =
        patch(url, "patched", "application/json; charset=utf-8", "{\"endsAt\":null}", null);
    assertThat(unbounded.status()).as(unbounded.body()).isEqualTo(200);
    assertThat(unbounded.json().get("endsAt")).isNull();

    List<Map<String, Object>> changes = changes("patched");
    assertThat(changes).extracting(c -> c.get("version")).containsExactly(2, 1);
    Map<String, Object> first = changes.get(1);
    assertThat(first).containsEntry("by", "admin");
    assertThat(Instant.parse((String) first.get("at"))).isBetween(Instant.now().minusSeconds(60), Instant.now());
    Map<String, Object> was = new java.util.HashMap<>();
    was.put("name", "patched");
    was.put("perUserLimit", 1);
    was.put("endsAt", null);
    assertThat(first.get("before")).isEqualTo(was);
    assertThat(((Map<?, ?>) first.get("before")).get("endsAt")).isNull();
    assertThat(first.get("after"))
        .isEqualTo(Map.of("name", "Renamed", "perUserLimit", 3, "endsAt", "2999-01-01T00:00:00Z"));

    // pages of one, by cursor
    Api.Response one = Api.get(url, BASE + "/patched/changes?limit=1", Tokens.admin());
    assertThat((List<?>) one.json().get("changes")).hasSize(1);
    Api.Response two =
        Api.get(url, BASE + "/patched/changes?limit=1&cursor=" + one.json().get("next"), Tokens.admin());
    assertThat(two.status()).isEqualTo(200);
    assertThat(((Map<?, ?>) ((List<?>) two.json().get("changes")).get(0)).get("version")).isEqualTo(1);
    assertThat(two.json().get("next")).isNull();
  }

  @Test
  void refusalsAreProblemsAndChangeNothing() {
    Api.createCampaign(url, "refused", 2, 2);
    assertThat(Claimer.claimUntilFinal(url, "refused", "holder"))
        .matches(Claimer.Result::tookACoupon);
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    Api.createCampaign(url, "was-ended", 1, 1, now.minus(2, ChronoUnit.DAYS), now.minus(1, ChronoUnit.DAYS));
    Map<String, Object> before = campaign("refused");

    assertProblem(patch("refused", "{\"perUserLimit\":1}"), 409, "per-user-limit-locked");
    assertProblem(patch("refused", "{\"id\":\"other\"}"), 400, "invalid-request");
    assertProblem(patch("refused", "{\"createdAt\":\"2020-01-01T00:00:00Z\"}"), 400, "invalid-request");
    assertProblem(patch("refused", "{\"colour\":\"red\"}"), 400, "invalid-request");
    assertProblem(patch("refused", "{\"name\":\"\"}"), 400, "invalid-request");
    assertProblem(patch("refused", "{\"name\":5}"), 400, "invalid-request");
    assertProblem(patch("refused", "{\"perUserLimit\":\"2\"}"), 400, "invalid-request");
    assertProblem(patch("refused", "{\"perUserLimit\":101}"), 400, "invalid-request");
    assertProblem(patch("refused", "{\"paused\":\"yes\"}"), 400, "invalid-request");
    assertProblem(patch("refused", "{\"paused\":null}"), 400, "invalid-request");
    assertProblem(patch("refused", "{\"startsAt\":\"tomorrow\"}"), 400, "invalid-request");
    assertProblem(
        patch("refused", "{\"startsAt\":\"2030-01-02T00:00:00Z\",\"endsAt\":\"2030-01-01T00:00:00Z\"}"),
        400,
        "invalid-request");
    assertProblem(patch("refused", "[]"), 400, "invalid-request");
    assertProblem(patch("refused", "{\"name\":"), 400, "invalid-request");
    assertProblem(patch("refused", ""), 400, "invalid-request");
    assertProblem(patch(url, "refused", "text/plain", "{\"name\":\"x\"}", null), 415, "unsupported-media-type");
    assertProblem(patch(url, "refused", "application/json", "{\"name\":\"x\"}", "3"), 400, "invalid-request");
    assertProblem(patch("bad%20id", "{\"name\":\"x\"}"), 400, "invalid-request");
    assertProblem(patch("no-such-campaign", "{\"name\":\"x\"}"), 404, "campaign-not-found");
    assertThat(campaign("refused")).isEqualTo(before);
    assertThat(changes("refused")).isEmpty();

    // an ended campaign does not reopen by accident, only with "reopen": true
    assertProblem(patch("was-ended", "{\"endsAt\":null}"), 409, "campaign-ended");
    assertThat(campaign("was-ended").get("status")).isEqualTo("ended");
    Api.Response reopened = patch("was-ended", "{\"endsAt\":null,\"reopen\":true}");
    assertThat(reopened.status()).as(reopened.body()).isEqualTo(200);
    assertThat(reopened.json().get("status")).isEqualTo("open");
  }

  @ParameterizedTest
  @ValueSource(strings = {"?limit=0", "?limit=101", "?limit=x", "?limit=1.5", "?cursor=%21%21", "?cursor=bm90LWEtY3Vyc29y", "?cursor=djE6NQ", "?cursor=YzE6OTk5OTk5OTk5OTk5OjA6eg", "?cursor=YzE6LTk5OTk5OTk5OTk5OjA6eg"})
  void malformedLimitsAndCursorsAreBadRequests(String query) {
    Api.createCampaign(url, "paged", 1, 0);
    assertProblem(Api.get(url, BASE + query, Tokens.admin()), 400, "invalid-request");
    String changesQuery = query.replace("djE6NQ", "YzE6MTox");
    assertProblem(Api.get(url, BASE + "/paged/changes" + changesQuery, Tokens.admin()), 400, "invalid-request");
  }

  @Test
  void theRoutesNeedTheAdminRole() {
    Api.createCampaign(url, "guarded", 1, 0);
    String user = Tokens.user("not-an-admin");
    for (String token : new String[] {null, user}) {
      int status = token == null ? 401 : 403;
      String type = token == null ? "unauthorized" : "forbidden";
      assertProblem(Api.get(url, BASE, token), status, type);
      assertProblem(Api.get(url, BASE + "/guarded/changes", token), status, type);
      HttpRequest.Builder patch =
          Api.request(url, BASE + "/guarded", token)
              .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"paused\":true}"))
              .header("Content-Type", "application/merge-patch+json");
      assertProblem(Api.send(patch.build()), status, type);
    }
    assertThat(campaign("guarded")).containsEntry("paused", false).containsEntry("version", 0);
    assertProblem(Api.get(url, BASE + "/no-such/changes", Tokens.admin()), 404, "campaign-not-found");
  }

  @Test
  void aPausedCampaignAnswersClaimsCampaignPausedAndResumes() {
    Api.createCampaign(url, "paused-here", 1, 3);
    assertThat(patch("paused-here", "{\"paused\":true}").json().get("status")).isEqualTo("paused");
    Api.Response claim = Claimer.claim(url, "paused-here", Tokens.user("pauser"), null);
    assertProblem(claim, 403, "campaign-paused");
    // The apps' status says so too, once this instance reads the stock again (stock-max-age).
    long until = System.nanoTime() + 10_000_000_000L;
    Object status;
    do {
      status = Api.get(url, "/v1/campaigns/paused-here", Tokens.user("pauser")).json().get("status");
    } while (!"paused".equals(status) && System.nanoTime() < until);
    assertThat(status).isEqualTo("paused");
    assertThat(patch("paused-here", "{\"paused\":false}").status()).isEqualTo(200);
    assertThat(Claimer.claimUntilFinal(url, "paused-here", "pauser"))
        .matches(Claimer.Result::tookACoupon);
  }
}
