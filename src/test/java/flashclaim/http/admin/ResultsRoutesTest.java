package flashclaim.http.admin;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.Sha256;
import flashclaim.results.ResultsService;
import flashclaim.testing.Api;
import flashclaim.testing.Claimer;
import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.Tokens;
import flashclaim.testing.Webhooks;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
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
 * What of the results lives in HTTP, on one instance: the export's formats chosen by Accept (CSV
 * by default, NDJSON, 406 for anything else), its fields, quoting, order and {@code Read-At}; the
 * support look-ups of a user's claims and of a code; 404s of unknown campaigns and codes; 400s of
 * malformed ids; and the roles (anonymous 401, a user 403). What each store reads, and that the
 * export is one moment of it, is {@code ResultsStoreContract}'s, on both stores.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ResultsRoutesTest {
  private static final String BASE = "/v1/admin/campaigns/";
  private static final String PROBLEM = "application/problem+json";
  /** An order id that CSV must quote: a comma and a double quote. */
  private static final String ORDER = "order,\"1\"";

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

  /** A campaign of 5 coupons, limit 2: alice holds two (one redeemed by {@link #ORDER}), bob one. */
  private Sale sale(String id) {
    Api.createCampaign(url, id, 2, 5);
    String alice1 = claim(id, "alice");
    String alice2 = claim(id, "alice");
    String bob = claim(id, "bob");
    Api.Response redeemed = Webhooks.deliver(
            url, Webhooks.body(id, alice2, ORDER.replace("\"", "\\\""), "redeemed"));
    assertThat(redeemed.status()).as(redeemed.body()).isEqualTo(200);
    return new Sale(id, alice1, alice2, bob);
  }

  private record Sale(String id, String alice1, String alice2, String bob) {}

  private String claim(String campaign, String user) {
    Claimer.Result result = Claimer.claimUntilFinal(url, campaign, user);
    assertThat(result).matches(Claimer.Result::tookACoupon);
    return result.code();
  }

  private Api.Response export(String campaign, String accept) {
    HttpRequest.Builder request = Api.request(url, BASE + campaign + "/claims", Tokens.admin()).GET();
    if (accept != null) {
      request.header("Accept", accept);
    }
    return Api.send(request.build());
  }

  private static void assertProblem(Api.Response response, int status, String type) {
    assertThat(response.status()).as(response.body()).isEqualTo(status);
    assertThat(response.contentType()).startsWith(PROBLEM);
    assertThat(response.json().get("type")).isEqualTo("urn:flashclaim:problem:" + type);
  }

  /** The rows the sale's export must hold, in its order: by user key, then slot. */
  private static List<List<String>> expectedRows(Sale sale) {
    List<List<String>> rows = new ArrayList<>();
    rows.add(List.of(sale.alice1(), Sha256.hex("alice"), "claimed", ""));
    rows.add(List.of(sale.alice2(), Sha256.hex("alice"), "redeemed", ORDER));
    rows.add(List.of(sale.bob(), Sha256.hex("bob"), "claimed", ""));
    rows.sort(Comparator.comparing((List<String> r) -> r.get(1))); // alice's two stay in slot order
    return rows;
  }

  @Test
  void theExportIsCsvByDefaultWithEveryClaimQuotedAndSortedByUser() {
    Sale sale = sale("csv-sale");
    Instant before = Instant.now();
    for (String accept : new String[] {null, "text/csv", "*/*", "text/*", "application/x-ndjson;q=0.5, text/csv"}) {
      Api.Response csv = export(sale.id(), accept);
      assertThat(csv.status()).as(accept + ": " + csv.body()).isEqualTo(200);
      assertThat(csv.contentType()).as(accept).startsWith("text/csv");
      Instant readAt = Instant.parse(csv.header(ResultsController.READ_AT));
      assertThat(readAt).isAfter(before.minusSeconds(60)).isBefore(Instant.now().plusSeconds(1));
      assertThat(csv.header("Content-Disposition"))
          .isEqualTo("attachment; filename=\"csv-sale-claims.csv\"");
      String[] lines = csv.body().split("\r\n", -1);
      assertThat(lines).hasSize(5); // header, 3 rows, and the empty rest after the last CRLF
      assertThat(lines[0]).isEqualTo("code,user,claimedAt,redemption,orderId");
      assertThat(lines[4]).isEmpty();
      List<List<String>> expected = expectedRows(sale);
      for (int i = 0; i < 3; i++) {
        List<String> row = expected.get(i);
        String line = lines[i + 1];
        String order = row.get(3).isEmpty() ? "" : "\"order,\"\"1\"\"\"";
        assertThat(line).startsWith(row.get(0) + "," + row.get(1) + ",");
        assertThat(line).endsWith("," + row.get(2) + "," + order);
        String claimedAt = line.split(",")[2];
        assertThat(Instant.parse(claimedAt)).isBefore(readAt.plusMillis(1));
      }
    }
  }

  @Test
  void theExportIsNdjsonWhenAskedWithNullOrderIdsUnlessRedeemed() {
    Sale sale = sale("ndjson-sale");
    for (String accept : new String[] {"application/x-ndjson", "text/csv;q=0.2, application/*;q=0.1, application/x-ndjson"}) {
      Api.Response ndjson = export(sale.id(), accept);
      assertThat(ndjson.status()).as(ndjson.body()).isEqualTo(200);
      assertThat(ndjson.contentType()).startsWith("application/x-ndjson");
      assertThat(ndjson.header(ResultsController.READ_AT)).isNotNull();
      String[] lines = ndjson.body().split("\n", -1);
      assertThat(lines).hasSize(4);
      assertThat(lines[3]).isEmpty();
      List<List<String>> expected = expectedRows(sale);
      for (int i = 0; i < 3; i++) {
        Map<String, Object> row = new Api.Response(200, Map.of(), lines[i]).json();
        List<String> want = expected.get(i);
        assertThat(row.keySet()).containsExactly("code", "user", "claimedAt", "redemption", "orderId");
        assertThat(row)
            .containsEntry("code", want.get(0))
            .containsEntry("user", want.get(1))
            .containsEntry("redemption", want.get(2))
            .containsEntry("orderId", want.get(3).isEmpty() ? null : ORDER);
        Instant.parse((String) row.get("claimedAt"));
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"application/json", "text/html", "text/csv;q=0", "garbage", "image/*"})
  void anyOtherFormatIsNotAcceptable(String accept) {
    Api.createCampaign(url, "formats", 1, 1);
    assertProblem(export("formats", accept), 406, "not-acceptable");
  }

  @Test
  void anEmptyCampaignExportsItsHeaderOnly() {
    Api.createCampaign(url, "empty", 1, 3);
    Api.Response csv = export("empty", "text/csv");
    assertThat(csv.status()).isEqualTo(200);
    assertThat(csv.body()).isEqualTo("code,user,claimedAt,redemption,orderId\r\n");
    Api.Response ndjson = export("empty", "application/x-ndjson");
    assertThat(ndjson.status()).isEqualTo(200);
    assertThat(ndjson.body()).isEmpty();
  }

  @Test
  void aHeadOfTheExportHasItsHeadersAndLeavesNoExportOpen() {
    Api.createCampaign(url, "head", 1, 1);
    Api.Response head =
        Api.send(
            Api.request(url, BASE + "head/claims", Tokens.admin())
                .method("HEAD", HttpRequest.BodyPublishers.noBody())
                .build());
    assertThat(head.status()).isEqualTo(200);
    assertThat(head.header(ResultsController.READ_AT)).isNotNull();
    assertThat(head.body()).isEmpty();
    assertThat(service.context().getBean(ResultsService.class).openExports()).isZero();
  }

  @Test
  @SuppressWarnings("unchecked")
  void aUsersClaimsAreListedWithTheirRedemption() {
    Sale sale = sale("support-users");
    Api.Response alice = Api.get(url, BASE + sale.id() + "/users/alice/claims", Tokens.admin());
    assertThat(alice.status()).as(alice.body()).isEqualTo(200);
    assertThat(alice.json())
        .containsEntry("user", "alice")
        .containsEntry("userKey", Sha256.hex("alice"));
    List<Map<String, Object>> claims = (List<Map<String, Object>>) alice.json().get("claims");
    assertThat(claims)
        .extracting(c -> c.get("code"), c -> c.get("redemption"), c -> c.get("orderId"))
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(sale.alice1(), "claimed", null),
            org.assertj.core.groups.Tuple.tuple(sale.alice2(), "redeemed", ORDER));
    assertThat(claims).allSatisfy(c -> Instant.parse((String) c.get("claimedAt")));

    Api.Response nobody = Api.get(url, BASE + sale.id() + "/users/nobody/claims", Tokens.admin());
    assertThat(nobody.status()).isEqualTo(200);
    assertThat((List<?>) nobody.json().get("claims")).isEmpty();

    // any token subject, percent-encoded in the path
    String subject = "caf\u00e9 \uD83D\uDE00|x@y";
    String code = claim(sale.id(), subject);
    Api.Response unicode =
        Api.get(
            url,
            BASE + sale.id() + "/users/caf%C3%A9%20%F0%9F%98%80%7Cx%40y/claims",
            Tokens.admin());
    assertThat(unicode.status()).as(unicode.body()).isEqualTo(200);
    assertThat(unicode.json()).containsEntry("user", subject);
    assertThat((List<Map<String, Object>>) unicode.json().get("claims"))
        .extracting(c -> c.get("code"))
        .containsExactly(code);
  }

  @Test
  void aCodeShowsItsStateHolderAndOrder() {
    Sale sale = sale("support-codes");
    Map<String, Object> redeemed = coupon(sale.id(), sale.alice2());
    assertThat(redeemed)
        .containsEntry("code", sale.alice2())
        .containsEntry("state", "redeemed")
        .containsEntry("user", Sha256.hex("alice"))
        .containsEntry("orderId", ORDER);
    Instant.parse((String) redeemed.get("claimedAt"));
    assertThat(coupon(sale.id(), sale.bob()))
        .containsEntry("state", "claimed")
        .containsEntry("user", Sha256.hex("bob"))
        .containsEntry("orderId", null);
    String free =
        backend.coupons(sale.id()).stream().filter(c -> !c.assigned()).findFirst().orElseThrow().code();
    assertThat(coupon(sale.id(), free))
        .containsEntry("code", free)
        .containsEntry("state", "available")
        .containsEntry("user", null)
        .containsEntry("claimedAt", null)
        .containsEntry("orderId", null);

    assertProblem(
        Api.get(url, BASE + sale.id() + "/coupons/NO-SUCH-CODE", Tokens.admin()), 404, "coupon-not-found");
  }

  private Map<String, Object> coupon(String campaign, String code) {
    Api.Response read = Api.get(url, BASE + campaign + "/coupons/" + code, Tokens.admin());
    assertThat(read.status()).as(read.body()).isEqualTo(200);
    return read.json();
  }

  @ParameterizedTest
  @ValueSource(strings = {"claims", "users/alice/claims", "coupons/C-1"})
  void unknownCampaignsAreNotFoundAndOddIdsBadRequests(String route) {
    assertProblem(Api.get(url, BASE + "nope/" + route, Tokens.admin()), 404, "campaign-not-found");
    assertProblem(Api.get(url, BASE + "__x__/" + route, Tokens.admin()), 400, "invalid-request");
    assertProblem(Api.get(url, BASE + "a".repeat(65) + "/" + route, Tokens.admin()), 400, "invalid-request");
  }

  @Test
  void oddUserIdsAndCodesAreBadRequests() {
    Api.createCampaign(url, "odd-ids", 1, 1);
    Api.Response longUser =
        Api.get(url, BASE + "odd-ids/users/" + "u".repeat(513) + "/claims", Tokens.admin());
    assertProblem(longUser, 400, "invalid-request");
    assertThat(longUser.body()).contains("\"field\":\"userId\"");
    for (String code : new String[] {"-x", "a".repeat(65), "a%20b", "caf%C3%A9"}) {
      Api.Response odd = Api.get(url, BASE + "odd-ids/coupons/" + code, Tokens.admin());
      assertProblem(odd, 400, "invalid-request");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"claims", "users/alice/claims", "coupons/C-1"})
  void onlyAdminsRead(String route) {
    Api.createCampaign(url, "roles", 1, 1);
    assertProblem(Api.get(url, BASE + "roles/" + route, null), 401, "unauthorized");
    assertProblem(Api.get(url, BASE + "roles/" + route, Tokens.user("alice")), 403, "forbidden");
  }
}
