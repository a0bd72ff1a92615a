package flashclaim.http;

import flashclaim.http.problem.Problem;
import flashclaim.testing.Api;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.Tokens;
import flashclaim.testing.Webhooks;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Values that a store cannot hold are the client's error, on every store: ids Firestore reserves
 * ({@code __x__}), instants outside the years 1 to 9999, text with NUL or a lone surrogate. Each is
 * a 400 {@code invalid-request} that names the field, and changes nothing; values at the very edges
 * are accepted and read back exactly.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class StoreLimitsContract {
  private static final String CAMPAIGN = "limits";
  private static final String CODE = "limits-0";

  private ServiceInstance service;
  private Map<String, String> storeBefore;

  /** The store of the test. */
  protected abstract StoreBackend backend();

  @BeforeAll
  void start() {
    service = ServiceInstance.start(new HashMap<>(backend().properties()));
  }

  @AfterAll
  void stop() {
    service.close();
  }

  @BeforeEach
  void seed() {
    backend().reset();
    Api.createCampaign(service.url(), CAMPAIGN, 1, 1);
    storeBefore = backend().snapshot();
  }

  static Stream<Arguments> reservedIdsOnEveryIdRoute() {
    List<String[]> routes =
        List.of(
            new String[] {"GET", "/v1/admin/campaigns/%s"},
            new String[] {"POST", "/v1/admin/campaigns/%s/coupons"},
            new String[] {"GET", "/v1/admin/campaigns/%s/audit"},
            new String[] {"GET", "/v1/admin/campaigns/%s/live"},
            new String[] {"POST", "/v1/campaigns/%s/claims"},
            new String[] {"GET", "/v1/campaigns/%s/claims/me"});
    return routes.stream()
        .flatMap(
            r ->
                Stream.of("__x__", "____", "__a-b__")
                    .map(id -> Arguments.of(r[0], String.format(r[1], id))));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("reservedIdsOnEveryIdRoute")
  void aReservedCampaignIdInThePathIsInvalid(String method, String path) {
    String token = path.startsWith("/v1/admin") ? Tokens.admin() : Tokens.user("limits-user");
    String body =
        method.equals("POST") && path.startsWith("/v1/admin") ? "{\"codes\":[\"c1\"]}" : null;
    Api.Response response =
        method.equals("GET")
            ? Api.get(service.url(), path, token)
            : Api.post(service.url(), path, token, body);

    assertInvalid(response, "id");
  }

  @ParameterizedTest
  @ValueSource(strings = {"__x__", "____", "__campaign__", "__-__"})
  void aReservedCampaignIdInTheBodyIsInvalid(String id) {
    assertInvalid(create("{\"id\":\"" + id + "\",\"name\":\"n\"}"), "id");
    assertInvalid(
        Webhooks.deliver(service.url(), Webhooks.body(id, CODE, "order-1", "redeemed")),
        "campaignId");
  }

  static Stream<Arguments> instantsNoStoreHolds() {
    return Stream.of("startsAt", "endsAt")
        .flatMap(
            field ->
                Stream.of(
                        "+10000-01-01T00:00:00Z",
                        "0000-12-31T23:59:59.999999Z",
                        "-0001-01-01T00:00:00Z",
                        "-1000000000-01-01T00:00:00Z",
                        "+1000000000-12-31T23:59:59.999999999Z")
                    .map(instant -> Arguments.of(field, instant)));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("instantsNoStoreHolds")
  void anInstantOutsideTheStoresRangeIsInvalid(String field, String instant) {
    Api.Response response =
        create("{\"id\":\"out-of-range\",\"name\":\"n\",\"" + field + "\":\"" + instant + "\"}");

    assertInvalid(response, field);
  }

  @Test
  void instantsAtTheEdgesAreKeptToTheMicrosecondAndReadBackExactly() {
    Api.Response created =
        create(
            "{\"id\":\"edges\",\"name\":\"edges\",\"startsAt\":\"0001-01-01T00:00:00Z\","
                + "\"endsAt\":\"9999-12-31T23:59:59.999999999Z\"}");
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    assertThat(created.json().get("endsAt")).isEqualTo("9999-12-31T23:59:59.999999Z");

    Api.Response read = Api.get(service.url(), "/v1/admin/campaigns/edges", Tokens.admin());
    assertThat(read.status()).as(read.toString()).isEqualTo(200);
    assertThat(read.json().get("startsAt")).isEqualTo("0001-01-01T00:00:00Z");
    assertThat(read.json().get("endsAt")).isEqualTo("9999-12-31T23:59:59.999999Z");
    assertThat(read.json().get("createdAt")).isEqualTo(created.json().get("createdAt"));
    // Open from year 1 to year 9999: a claim reads the campaign back from the store and gets a
    // coupon.
    Api.Response added =
        Api.post(
            service.url(),
            "/v1/admin/campaigns/edges/coupons",
            Tokens.admin(),
            "{\"codes\":[\"e1\"]}");
    assertThat(added.status()).as(added.toString()).isEqualTo(200);
    Api.Response claimed =
        Api.post(service.url(), "/v1/campaigns/edges/claims", Tokens.user("limits-user"), null);
    assertThat(claimed.status()).as(claimed.toString()).isEqualTo(201);
  }

  @ParameterizedTest
  @ValueSource(strings = {"\\u0000", "a\\u0000b", "tab\\there", "\\ud800", "x\\udc00", "\\ud83d"})
  void textNoStoreHoldsIsInvalid(String escaped) {
    assertInvalid(create("{\"id\":\"texts\",\"name\":\"" + escaped + "\"}"), "name");
    assertInvalid(
        Webhooks.deliver(service.url(), Webhooks.body(CAMPAIGN, CODE, escaped, "redeemed")),
        "orderId");
  }

  @Test
  void aPrefixThatWouldMakeInvalidCodesIsInvalidAsAPrefix() {
    Api.Response response =
        Api.post(
            service.url(),
            "/v1/admin/campaigns/" + CAMPAIGN + "/coupons",
            Tokens.admin(),
            "{\"generate\":{\"count\":1,\"prefix\":\"_x\"}}");

    assertInvalid(response, "generate.prefix");
  }

  private Api.Response create(String body) {
    return Api.post(service.url(), "/v1/admin/campaigns", Tokens.admin(), body);
  }

  /** 400 invalid-request problem+json naming {@code field}, and the store as it was. */
  private void assertInvalid(Api.Response response, String field) {
    assertThat(response.status()).as(response.toString()).isEqualTo(400);
    assertThat(response.contentType()).as(response.toString()).startsWith(Problem.MEDIA_TYPE);
    Map<String, Object> problem = response.json();
    assertThat(problem.get("type")).isEqualTo("urn:flashclaim:problem:invalid-request");
    List<String> fields =
        ((List<?>) problem.get("errors"))
            .stream().map(e -> (String) ((Map<?, ?>) e).get("field")).toList();
    assertThat(fields).as(response.toString()).containsExactly(field);
    assertThat(backend().snapshot()).as("store after %s", response).isEqualTo(storeBefore);
  }
}
