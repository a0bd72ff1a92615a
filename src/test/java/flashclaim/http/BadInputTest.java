package flashclaim.http;

import com.nimbusds.jose.PlainHeader;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import flashclaim.http.problem.Problem;
import flashclaim.http.problem.ProblemType;
import flashclaim.testing.Api;
import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.RawHttp;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.Tokens;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bad input on every route: each one is answered with a 4xx (never a 5xx) problem+json whose
 * {@code status} is the HTTP status, and none of them changes anything in the store, which is read
 * directly (every document path with its update time) before and after.
 *
 * <p>Every test starts from an emulator holding one open campaign with {@value #SEEDED_COUPONS}
 * coupons, one of them claimed, so that a request that slipped through would show up as a new,
 * changed or deleted document.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BadInputTest {
  /** The add-coupons limit of the test instance, small so that exceeding it is cheap. */
  static final int MAX_CODES = 100;
  /** A body just above {@code micronaut.server.max-request-size} (8MB). */
  static final int OVERSIZED_BODY = 8 * 1024 * 1024 + 1024;
  static final int SEEDED_COUPONS = 3;
  static final String PROBLEM_PREFIX = "urn:flashclaim:problem:";
  static final String FORGED_SECRET = "not-the-secret-of-the-service-0123456789abcdef";
  static final String SEEDED_USER = "seeded-user";

  private final StoreBackend firestore = new FirestoreBackend();
  private ServiceInstance service;
  private int campaignCounter;
  /** The campaign that exists in every test. */
  private String campaign;
  private Map<String, String> storeBefore;

  /** A route of the API; {@code %s} stands for the campaign id. */
  enum Route {
    CREATE("POST", "/v1/admin/campaigns", true),
    LIST("GET", "/v1/admin/campaigns", true),
    SHOW("GET", "/v1/admin/campaigns/%s", true),
    PATCH("PATCH", "/v1/admin/campaigns/%s", true),
    CHANGES("GET", "/v1/admin/campaigns/%s/changes", true),
    ADD_COUPONS("POST", "/v1/admin/campaigns/%s/coupons", true),
    AUDIT("GET", "/v1/admin/campaigns/%s/audit", true),
    CLAIM("POST", "/v1/campaigns/%s/claims", false),
    MINE("GET", "/v1/campaigns/%s/claims/me", false),
    STATUS("GET", "/v1/campaigns/%s", false);

    final String method;
    final String template;
    final boolean admin;

    Route(String method, String template, boolean admin) {
      this.method = method;
      this.template = template;
      this.admin = admin;
    }

    boolean takesId() {
      return template.contains("%s");
    }

    /** The path with {@code id} put in as it is: the caller encodes what needs encoding. */
    String path(String id) {
      return takesId() ? String.format(template, id) : template;
    }

    /** A token this route accepts. */
    String goodToken() {
      return admin ? Tokens.admin() : Tokens.user("bad-input-user");
    }
  }

  /** The store of the test: the emulator here, PostgreSQL in {@link PostgresBadInputTest}. */
  protected StoreBackend backend() {
    return firestore;
  }

  @BeforeAll
  void startService() {
    Map<String, Object> properties = new HashMap<>(backend().properties());
    properties.put("flashclaim.seeding.max-codes-per-request", MAX_CODES);
    service = ServiceInstance.start(properties);
  }

  @AfterAll
  void stopService() {
    service.close();
  }

  /**
   * Seeds the store again only when the last test left it other than it was seeded: every refusal
   * leaves it as it was (which {@link #assertRejected} checks), so one seed serves them all.
   */
  @BeforeEach
  void seedStoreUnlessUnchanged() {
    if (storeBefore == null || !storeBefore.equals(backend().snapshot())) {
      seedStore();
    }
  }

  private void seedStore() {
    storeBefore = null;
    backend().reset();
    campaign = newCampaignId();
    Api.createCampaign(service.url(), campaign, 1, SEEDED_COUPONS);
    Api.Response claimed =
        Api.post(service.url(), claimsPath(campaign), Tokens.user(SEEDED_USER), null);
    assertThat(claimed.status()).as("seed claim %s", claimed).isEqualTo(201);
    Map<String, String> seeded = backend().snapshot();
    // the campaign, its coupons and the claim record, and whatever else the store keeps with them
    assertThat(seeded).hasSizeGreaterThanOrEqualTo(1 + SEEDED_COUPONS + 1);
    storeBefore = seeded;
  }

  // ---------------------------------------------------------------- create campaign: bodies

  static Stream<Arguments> badCampaignBodies() {
    String ok = "\"name\":\"n\"";
    return Stream.of(
        // malformed JSON
        bad("unclosed object", "{\"id\":\"$ID\"," + ok),
        bad("not JSON", "this is not json"),
        bad("missing comma", "{\"id\":\"$ID\" " + ok + "}"),
        bad("trailing comma", "{\"id\":\"$ID\"," + ok + ",}"),
        bad("single quotes", "{'id':'$ID','name':'n'}"),
        bad("truncated string", "{\"id\":\"$ID"),
        bad("JSON null", "null"),
        bad("JSON array", "[\"$ID\"]"),
        bad("JSON string", "\"$ID\""),
        bad("JSON number", "42"),
        bad("body wrapped in a list", "[{\"id\":\"$ID\"," + ok + "}]"),
        bad("deeply nested", "{\"id\":\"$ID\"," + ok + ",\"x\":" + nested(5_000) + "}"),
        // wrong types
        bad("perUserLimit string", "{\"id\":\"$ID\"," + ok + ",\"perUserLimit\":\"abc\"}"),
        bad("perUserLimit boolean", "{\"id\":\"$ID\"," + ok + ",\"perUserLimit\":true}"),
        bad("perUserLimit object", "{\"id\":\"$ID\"," + ok + ",\"perUserLimit\":{}}"),
        bad("perUserLimit array", "{\"id\":\"$ID\"," + ok + ",\"perUserLimit\":[1]}"),
        bad("perUserLimit fraction", "{\"id\":\"$ID\"," + ok + ",\"perUserLimit\":1.5}"),
        bad("perUserLimit numeric string", "{\"id\":\"$ID\"," + ok + ",\"perUserLimit\":\"5\"}"),
        bad("perUserLimit overflow", "{\"id\":\"$ID\"," + ok + ",\"perUserLimit\":99999999999}"),
        bad("id object", "{\"id\":{\"v\":\"$ID\"}," + ok + "}"),
        bad("id number", "{\"id\":12345," + ok + "}"),
        bad("id array", "{\"id\":[\"$ID\"]," + ok + "}"),
        bad("name number", "{\"id\":\"$ID\",\"name\":5}"),
        bad("name object", "{\"id\":\"$ID\",\"name\":{}}"),
        bad("name array", "{\"id\":\"$ID\",\"name\":[\"n\"]}"),
        bad("startsAt not a date", "{\"id\":\"$ID\"," + ok + ",\"startsAt\":\"yesterday\"}"),
        bad("startsAt a number", "{\"id\":\"$ID\"," + ok + ",\"startsAt\":1893456000}"),
        bad("startsAt a boolean", "{\"id\":\"$ID\"," + ok + ",\"startsAt\":true}"),
        bad("startsAt in a list", "{\"id\":\"$ID\"," + ok + ",\"startsAt\":[\"2030-01-01T00:00:00Z\"]}"),
        bad("endsAt object", "{\"id\":\"$ID\"," + ok + ",\"endsAt\":{}}"),
        // missing fields
        bad("no id", "{" + ok + "}"),
        bad("no name", "{\"id\":\"$ID\"}"),
        bad("id null", "{\"id\":null," + ok + "}"),
        bad("name null", "{\"id\":\"$ID\",\"name\":null}"),
        bad("empty object", "{}"),
        bad("empty body", ""),
        bad("no body", null),
        // invalid values
        bad("perUserLimit 0", "{\"id\":\"$ID\"," + ok + ",\"perUserLimit\":0}"),
        bad("perUserLimit 101", "{\"id\":\"$ID\"," + ok + ",\"perUserLimit\":101}"),
        bad("perUserLimit -1", "{\"id\":\"$ID\"," + ok + ",\"perUserLimit\":-1}"),
        bad(
            "endsAt before startsAt",
            "{\"id\":\"$ID\"," + ok
                + ",\"startsAt\":\"2030-01-02T00:00:00Z\",\"endsAt\":\"2030-01-01T00:00:00Z\"}"),
        bad(
            "endsAt equal to startsAt",
            "{\"id\":\"$ID\"," + ok
                + ",\"startsAt\":\"2030-01-01T00:00:00Z\",\"endsAt\":\"2030-01-01T00:00:00Z\"}"),
        bad("blank name", "{\"id\":\"$ID\",\"name\":\"   \"}"),
        bad("empty name", "{\"id\":\"$ID\",\"name\":\"\"}"),
        bad("name of 201 characters", "{\"id\":\"$ID\",\"name\":\"" + "n".repeat(201) + "\"}"),
        bad("empty id", "{\"id\":\"\"," + ok + "}"),
        bad("id with space", "{\"id\":\"$ID x\"," + ok + "}"),
        bad("id with slash", "{\"id\":\"$ID/x\"," + ok + "}"),
        bad("id with dot", "{\"id\":\"$ID.x\"," + ok + "}"),
        bad("id dot", "{\"id\":\".\"," + ok + "}"),
        bad("id dot dot", "{\"id\":\"..\"," + ok + "}"),
        bad("id with unicode", "{\"id\":\"$ID-caf\u00e9\"," + ok + "}"),
        bad("id with emoji", "{\"id\":\"$ID-\uD83D\uDE00\"," + ok + "}"),
        bad("id of 65 characters", "{\"id\":\"" + "a".repeat(65) + "\"," + ok + "}"),
        bad("id of 2000 characters", "{\"id\":\"" + "a".repeat(2_000) + "\"," + ok + "}"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badCampaignBodies")
  void createRejectsBadBody(String label, String body) {
    Api.Response response = postJson(Route.CREATE.path(null), Tokens.admin(), withFreshId(body));

    assertRejected(response, 400, "invalid-request");
  }

  @Test
  void createRejectsTakenId() {
    Api.Response response =
        postJson(
            Route.CREATE.path(null),
            Tokens.admin(),
            "{\"id\":\"" + campaign + "\",\"name\":\"another\",\"perUserLimit\":5}");

    assertRejected(response, 409, "campaign-exists");
  }

  // ---------------------------------------------------------------- add coupons: bodies

  static Stream<Arguments> badCouponBodies() {
    return Stream.of(
        // malformed JSON
        bad("unclosed object", "{\"codes\":[\"a1\"]"),
        bad("unclosed list", "{\"codes\":[\"a1\""),
        bad("trailing comma in list", "{\"codes\":[\"a1\",]}"),
        bad("not JSON", "codes=a1"),
        bad("JSON null", "null"),
        bad("JSON array", "[\"a1\"]"),
        bad("JSON string", "\"a1\""),
        bad("body wrapped in a list", "[{\"codes\":[\"a1\"]}]"),
        bad("deeply nested codes", "{\"codes\":" + nested(5_000) + "}"),
        // wrong types
        bad("codes a string", "{\"codes\":\"notalist\"}"),
        bad("codes an object", "{\"codes\":{\"a\":\"a1\"}}"),
        bad("codes a number", "{\"codes\":7}"),
        bad("codes of numbers", "{\"codes\":[1,2]}"),
        bad("codes of booleans", "{\"codes\":[true]}"),
        bad("codes of lists", "{\"codes\":[[\"a1\"]]}"),
        bad("codes of objects", "{\"codes\":[{}]}"),
        bad("generate a string", "{\"generate\":\"x\"}"),
        bad("generate a number", "{\"generate\":5}"),
        bad("generate a list", "{\"generate\":[5]}"),
        bad("generate wrapped in a list", "{\"generate\":[{\"count\":1}]}"),
        bad("count a string", "{\"generate\":{\"count\":\"x\"}}"),
        bad("count a boolean", "{\"generate\":{\"count\":true}}"),
        bad("count a fraction", "{\"generate\":{\"count\":2.5}}"),
        bad("count a numeric string", "{\"generate\":{\"count\":\"3\"}}"),
        bad("count an object", "{\"generate\":{\"count\":{}}}"),
        bad("count overflow", "{\"generate\":{\"count\":99999999999}}"),
        bad("prefix an object", "{\"generate\":{\"count\":1,\"prefix\":{}}}"),
        bad("prefix a number", "{\"generate\":{\"count\":1,\"prefix\":7}}"),
        // missing fields
        bad("empty object", "{}"),
        bad("both null", "{\"codes\":null,\"generate\":null}"),
        bad("both codes and generate", "{\"codes\":[\"a1\"],\"generate\":{\"count\":1}}"),
        bad("generate without count", "{\"generate\":{}}"),
        bad("generate with only a prefix", "{\"generate\":{\"prefix\":\"p\"}}"),
        bad("empty body", ""),
        bad("no body", null),
        // invalid values
        bad("count 0", "{\"generate\":{\"count\":0}}"),
        bad("count -5", "{\"generate\":{\"count\":-5}}"),
        bad("prefix with space", "{\"generate\":{\"count\":1,\"prefix\":\"a b\"}}"),
        bad("prefix with slash", "{\"generate\":{\"count\":1,\"prefix\":\"a/b\"}}"),
        bad("prefix with dot", "{\"generate\":{\"count\":1,\"prefix\":\"a.b\"}}"),
        bad("prefix with unicode", "{\"generate\":{\"count\":1,\"prefix\":\"caf\u00e9\"}}"),
        bad("prefix of 21 characters", "{\"generate\":{\"count\":1,\"prefix\":\"" + "p".repeat(21) + "\"}}"),
        bad("code with space", "{\"codes\":[\"a 1\"]}"),
        bad("code with unicode", "{\"codes\":[\"caf\u00e9\"]}"),
        bad("code with emoji", "{\"codes\":[\"a\uD83D\uDE00\"]}"),
        bad("code with slash", "{\"codes\":[\"a/1\"]}"),
        bad("code empty", "{\"codes\":[\"\"]}"),
        bad("code starting with a dot", "{\"codes\":[\".a1\"]}"),
        bad("code starting with a dash", "{\"codes\":[\"-a1\"]}"),
        bad("code of 65 characters", "{\"codes\":[\"" + "c".repeat(65) + "\"]}"),
        bad("null code", "{\"codes\":[null]}"),
        bad("good codes then a null", "{\"codes\":[\"good-1\",\"good-2\",null]}"),
        bad("good codes then a bad one", "{\"codes\":[\"good-1\",\"good-2\",\"bad code\"]}"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badCouponBodies")
  void addCouponsRejectsBadBody(String label, String body) {
    Api.Response response = postJson(Route.ADD_COUPONS.path(campaign), Tokens.admin(), body);

    assertRejected(response, 400, "invalid-request");
  }

  @Test
  void addCouponsRejectsMoreCodesThanTheLimit() {
    String codes =
        IntStream.rangeClosed(0, MAX_CODES)
            .mapToObj(i -> "\"many-" + i + "\"")
            .collect(Collectors.joining(",", "{\"codes\":[", "]}"));

    Api.Response response = postJson(Route.ADD_COUPONS.path(campaign), Tokens.admin(), codes);

    assertRejected(response, 413, "too-many-codes");
  }

  @Test
  void addCouponsRejectsGeneratingMoreCodesThanTheLimit() {
    Api.Response response =
        postJson(
            Route.ADD_COUPONS.path(campaign),
            Tokens.admin(),
            "{\"generate\":{\"count\":" + (MAX_CODES + 1) + "}}");

    assertRejected(response, 413, "too-many-codes");
  }

  // ---------------------------------------------------------------- oversized bodies

  /** Every POST route, with the oversized body once with its length declared, once chunked. */
  static Stream<Arguments> oversizedBodies() {
    return Arrays.stream(Route.values())
        .filter(r -> r.method.equals("POST"))
        .flatMap(route -> Stream.of(Arguments.of(route, "declared"), Arguments.of(route, "chunked")));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("oversizedBodies")
  void oversizedBodyIsRefused(Route route, String length) {
    byte[] body = oversizedJson().getBytes(StandardCharsets.UTF_8);
    HttpRequest.BodyPublisher publisher =
        length.equals("chunked")
            ? HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body))
            : HttpRequest.BodyPublishers.ofByteArray(body);

    Api.Response response =
        send(
            request(route.path(campaign), route.goodToken())
                .header("Content-Type", "application/json")
                .POST(publisher));

    assertRejected(response, 413, "payload-too-large");
  }

  /** The claim route takes no body and ignores one within the limit, whatever its type. */
  @ParameterizedTest
  @ValueSource(strings = {"application/json", "text/plain", "application/octet-stream"})
  void claimIgnoresABodyWithinTheLimit(String contentType) {
    Api.Response response =
        send(
            request(claimsPath(campaign), Tokens.user("body-sender"))
                .header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString("{\"any\":\"thing\"}")));

    assertThat(response.status()).as("claim with a small body: %s", response).isEqualTo(201);
  }

  // ---------------------------------------------------------------- campaign ids in the path

  static Stream<Route> idRoutes() {
    return Arrays.stream(Route.values()).filter(Route::takesId);
  }

  @ParameterizedTest
  @MethodSource("idRoutes")
  void unknownCampaignIsNotFound(Route route) {
    String unknown = newCampaignId();

    Api.Response response = sendValid(route, route.path(unknown), route.goodToken());

    assertRejected(response, 404, "campaign-not-found");
    assertThat(response.json().get("detail").toString()).contains(unknown);
  }

  /** Odd ids, as they appear in the path (already percent-encoded where the URI needs it). */
  static final List<String> ODD_IDS =
      List.of(
          "a/b",
          "a%2Fb",
          "%2F",
          "%2f..%2f",
          ".",
          "..",
          "a.b",
          "%2E%2E",
          "caf%C3%A9",
          "%F0%9F%98%80",
          "a%20b",
          "%20",
          "a+b",
          "a%00b",
          "a%0Ab",
          "a;b=c",
          "a".repeat(65),
          "a".repeat(2_000));

  static Stream<Arguments> oddIdsOnEveryRoute() {
    return idRoutes().flatMap(route -> ODD_IDS.stream().map(id -> Arguments.of(route, id)));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("oddIdsOnEveryRoute")
  void oddCampaignIdIsRejected(Route route, String id) {
    Api.Response response = sendValid(route, route.path(id), route.goodToken());

    assertRejected(response, 400, 404);
  }

  /** Odd ids that no valid URI holds: raw spaces and non-ASCII, broken percent-escapes. */
  static final List<String> RAW_ODD_IDS = List.of("a b", "caf\u00e9", "\uD83D\uDE00", "%", "%zz", "a%G0");

  static Stream<Arguments> rawOddIdsOnEveryRoute() {
    return idRoutes().flatMap(route -> RAW_ODD_IDS.stream().map(id -> Arguments.of(route, id)));
  }

  /** Bytes a well-behaved client would percent-encode, sent raw in the request line. */
  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("rawOddIdsOnEveryRoute")
  void rawOddCampaignIdIsRejected(Route route, String id) {
    Api.Response response =
        RawHttp.send(
            service.url(),
            route.method,
            route.path(id),
            List.of(new RawHttp.Header("Authorization", "Bearer " + route.goodToken())),
            new byte[0]);

    assertRejected(response, 400, 404);
  }

  // ---------------------------------------------------------------- tokens

  static Stream<Arguments> badTokens() {
    List<String> admin = List.of("admin");
    String expired = Tokens.mint("admin", admin, Duration.ofMinutes(-5), Tokens.SECRET);
    String forged = Tokens.mint("admin", admin, Duration.ofHours(1), FORGED_SECRET);
    String valid = Tokens.admin();
    String[] parts = valid.split("\\.");
    Map<String, String> tokens = new LinkedHashMap<>();
    tokens.put("missing", null);
    tokens.put("empty", "");
    tokens.put("garbage", "garbage");
    tokens.put("three garbage parts", "aaa.bbb.ccc");
    tokens.put("truncated signature", valid.substring(0, valid.length() - 5));
    tokens.put("no signature", parts[0] + "." + parts[1] + ".");
    tokens.put("expired", expired);
    tokens.put("forged", forged);
    tokens.put("alg none", unsignedAdminToken());
    tokens.put("alg none with the real signature", unsignedHeader() + "." + parts[1] + "." + parts[2]);
    return Arrays.stream(Route.values())
        .flatMap(
            route ->
                tokens.entrySet().stream()
                    .map(t -> Arguments.of(route, t.getKey(), t.getValue())));
  }

  @ParameterizedTest(name = "{0} token {1}")
  @MethodSource("badTokens")
  void badTokenIsUnauthorized(Route route, String label, String token) {
    Api.Response response = sendValid(route, route.path(campaign), token);

    assertRejected(response, 401, "unauthorized");
  }

  @ParameterizedTest
  @EnumSource(Route.class)
  void otherAuthorizationSchemeIsUnauthorized(Route route) {
    Api.Response response =
        send(
            withBody(
                route,
                HttpRequest.newBuilder(uri(route.path(campaign)))
                    .header("Authorization", "Basic YWRtaW46YWRtaW4=")));

    assertRejected(response, 401, "unauthorized");
  }

  @ParameterizedTest
  @EnumSource(value = Route.class, names = {"CREATE", "SHOW", "ADD_COUPONS", "AUDIT"})
  void adminRouteForbidsOtherUsers(Route route) {
    // Valid and signed, but without the admin role: the subject "admin" grants nothing.
    String user = Tokens.mint("admin", List.of("user"), Duration.ofHours(1), Tokens.SECRET);

    Api.Response response = sendValid(route, route.path(campaign), user);

    assertRejected(response, 403, "forbidden");
  }

  @ParameterizedTest
  @EnumSource(value = Route.class, names = {"CLAIM", "MINE"})
  void tokenWithoutSubjectIsRejected(Route route) {
    String token = Tokens.mint(null, List.of(), Duration.ofHours(1), Tokens.SECRET);

    Api.Response response = sendValid(route, route.path(campaign), token);

    assertRejected(response, 400, 401);
  }

  @ParameterizedTest
  @EnumSource(value = Route.class, names = {"CLAIM", "MINE"})
  void overlongSubjectIsRejected(Route route) {
    String token = Tokens.user("u".repeat(513));

    Api.Response response = sendValid(route, route.path(campaign), token);

    assertRejected(response, 401, "unauthorized");
  }

  // ---------------------------------------------------------------- methods and media types

  static Stream<Arguments> wrongMethods() {
    return Stream.of(
        Arguments.of("PATCH", "/v1/admin/campaigns"),
        Arguments.of("PUT", "/v1/admin/campaigns"),
        Arguments.of("DELETE", "/v1/admin/campaigns"),
        Arguments.of("PUT", "/v1/admin/campaigns/$C"),
        Arguments.of("DELETE", "/v1/admin/campaigns/$C"),
        Arguments.of("POST", "/v1/admin/campaigns/$C/changes"),
        Arguments.of("DELETE", "/v1/admin/campaigns/$C/changes"),
        Arguments.of("POST", "/v1/admin/campaigns/$C"),
        Arguments.of("GET", "/v1/admin/campaigns/$C/coupons"),
        Arguments.of("DELETE", "/v1/admin/campaigns/$C/coupons"),
        Arguments.of("PUT", "/v1/admin/campaigns/$C/coupons"),
        Arguments.of("POST", "/v1/admin/campaigns/$C/audit"),
        Arguments.of("DELETE", "/v1/admin/campaigns/$C/audit"),
        Arguments.of("GET", "/v1/campaigns/$C/claims"),
        Arguments.of("DELETE", "/v1/campaigns/$C/claims"),
        Arguments.of("PUT", "/v1/campaigns/$C/claims"),
        Arguments.of("POST", "/v1/campaigns/$C/claims/me"),
        Arguments.of("DELETE", "/v1/campaigns/$C/claims/me"));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("wrongMethods")
  void wrongMethodIsNotAllowed(String method, String path) {
    String token = path.startsWith("/v1/admin") ? Tokens.admin() : Tokens.user("bad-input-user");

    Api.Response response =
        send(
            request(path.replace("$C", campaign), token)
                .header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString("{}")));

    assertRejected(response, 405, "method-not-allowed");
  }

  static Stream<Arguments> wrongContentTypes() {
    return Stream.of("text/plain", "application/xml", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x")
        .flatMap(
            type ->
                Stream.of(Route.CREATE, Route.ADD_COUPONS)
                    // add-coupons takes a file of codes as text/plain (CodeUploadTest)
                    .filter(route -> !(route == Route.ADD_COUPONS && type.equals("text/plain")))
                    .map(route -> Arguments.of(route, type)));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("wrongContentTypes")
  void wrongContentTypeIsUnsupported(Route route, String contentType) {
    Api.Response response =
        send(
            request(route.path(campaign), Tokens.admin())
                .header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(withFreshId(validBody(route)))));

    assertRejected(response, 415, "unsupported-media-type");
  }

  @ParameterizedTest
  @ValueSource(strings = {"/v1", "/v1/admin", "/v1/campaigns", "/v1/campaigns/$C/nothing", "/v1/nothing/here"})
  void unknownPathIsNotFound(String path) {
    Api.Response response = send(request(path.replace("$C", campaign), Tokens.admin()).GET());

    assertRejected(response, 404, "not-found");
  }

  // ---------------------------------------------------------------- oversized request heads

  /** Well past the server's limits: 4 KB for the request line, 8 KB for the header section. */
  static final int OVERSIZED_HEAD = 16 * 1024;

  static Stream<Arguments> oversizedHeaderSections() {
    List<RawHttp.Header> one = List.of(new RawHttp.Header("X-Padding", "p".repeat(OVERSIZED_HEAD)));
    List<RawHttp.Header> many =
        IntStream.range(0, OVERSIZED_HEAD / 100)
            .mapToObj(i -> new RawHttp.Header("X-Padding-" + i, "p".repeat(90)))
            .toList();
    return Arrays.stream(Route.values())
        .flatMap(r -> Stream.of(Arguments.of(r, "one long header", one), Arguments.of(r, "many headers", many)));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("oversizedHeaderSections")
  void oversizedHeaderSectionIsRefused(Route route, String shape, List<RawHttp.Header> padding) {
    List<RawHttp.Header> headers = new ArrayList<>(padding);
    headers.add(new RawHttp.Header("Authorization", "Bearer " + route.goodToken()));

    Api.Response response =
        RawHttp.send(service.url(), route.method, route.path(campaign), headers, null);

    assertRejected(response, 431, "headers-too-large");
  }

  static Stream<Arguments> undecodableHeadRequests() {
    List<RawHttp.Header> oversized =
        List.of(new RawHttp.Header("X-Request-Id", "x".repeat(OVERSIZED_HEAD)));
    List<RawHttp.Header> malformed = List.of(new RawHttp.Header("X-Request-Id ", "spaced-name"));
    List<RawHttp.Header> control = List.of(new RawHttp.Header("X-Request-Id", "a\u0001b"));
    return Stream.of("/", "/v1/campaigns/x", "/v1/admin/campaigns")
        .flatMap(
            path ->
                Stream.of(
                    Arguments.of(path, "oversized header section", oversized, 431),
                    Arguments.of(path, "malformed header", malformed, 400),
                    Arguments.of(path, "control character", control, 400),
                    Arguments.of(path + "?q=" + "q".repeat(OVERSIZED_HEAD), "overlong line", List.of(), 414),
                    Arguments.of(path + " b", "space in the target", List.of(), 400)));
  }

  /**
   * A HEAD request the server cannot decode gets the status and the problem+json Content-Type a
   * GET would get, without the body.
   */
  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("undecodableHeadRequests")
  void undecodableHeadRequestIsRefusedAsAGetWouldBe(
      String target, String shape, List<RawHttp.Header> headers, int status) {
    Api.Response head = RawHttp.send(service.url(), "HEAD", target, headers, null);
    Api.Response get = RawHttp.send(service.url(), "GET", target, headers, null);

    assertRejected(get, status);
    assertThat(head.status()).as("status of %s", head).isEqualTo(status);
    assertThat(head.contentType()).as("content type of %s", head).startsWith(Problem.MEDIA_TYPE);
    assertThat(head.body()).as("body of %s", head).isEmpty();
    assertThat(backend().snapshot()).as("store after %s", head).isEqualTo(storeBefore);
  }

  @ParameterizedTest
  @EnumSource(Route.class)
  void overlongRequestLineIsRefused(Route route) {
    String target = route.path(campaign) + "?q=" + "q".repeat(OVERSIZED_HEAD);
    List<RawHttp.Header> headers =
        List.of(new RawHttp.Header("Authorization", "Bearer " + route.goodToken()));

    Api.Response response = RawHttp.send(service.url(), route.method, target, headers, null);

    assertRejected(response, 414, "uri-too-long");
  }

  // ---------------------------------------------------------------- helpers

  private static Arguments bad(String label, String body) {
    return Arguments.of(label, body);
  }

  /** {@code depth} nested JSON arrays. */
  private static String nested(int depth) {
    return "[".repeat(depth) + "]".repeat(depth);
  }

  /** A well-formed JSON body above the size limit. */
  private static String oversizedJson() {
    return "{\"codes\":[\"" + "x".repeat(OVERSIZED_BODY) + "\"]}";
  }

  private String newCampaignId() {
    return "bad-input-" + (++campaignCounter);
  }

  private String withFreshId(String body) {
    return body == null ? null : body.replace("$ID", newCampaignId());
  }

  private static String claimsPath(String id) {
    return Route.CLAIM.path(id);
  }

  /** A body the route accepts, so that only the thing under test is wrong. */
  private static String validBody(Route route) {
    return switch (route) {
      case CREATE -> "{\"id\":\"$ID\",\"name\":\"valid\"}";
      case ADD_COUPONS -> "{\"codes\":[\"valid-code-1\",\"valid-code-2\"]}";
      case PATCH -> "{\"paused\":false}"; // accepted, it changes nothing
      default -> null;
    };
  }

  /** The route's request with a valid body (if it takes one) and the given token. */
  private Api.Response sendValid(Route route, String path, String token) {
    return send(withBody(route, request(path, token)));
  }

  private HttpRequest.Builder withBody(Route route, HttpRequest.Builder builder) {
    String body = withFreshId(validBody(route));
    if (body != null) {
      builder.header("Content-Type", "application/json");
    }
    return builder.method(
        route.method,
        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
  }

  private Api.Response postJson(String path, String token, String body) {
    HttpRequest.Builder builder = request(path, token);
    if (body != null) {
      builder.header("Content-Type", "application/json");
    }
    return send(
        builder.POST(
            body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body)));
  }

  /** The path is appended as it is: no resolving, no normalizing of dot segments. */
  private URI uri(String path) {
    return URI.create(service.url() + path);
  }

  private HttpRequest.Builder request(String path, String token) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(60));
    if (token != null) {
      builder.header("Authorization", "Bearer " + token);
    }
    return builder;
  }

  private static Api.Response send(HttpRequest.Builder builder) {
    return Api.send(builder.build());
  }

  private static String unsignedAdminToken() {
    JWTClaimsSet claims =
        new JWTClaimsSet.Builder()
            .subject("admin")
            .claim("roles", List.of("admin"))
            .expirationTime(Date.from(Instant.now().plusSeconds(3_600)))
            .build();
    return new PlainJWT(claims).serialize();
  }

  private static String unsignedHeader() {
    return new PlainHeader().toBase64URL().toString();
  }

  /** A 4xx problem+json of the given status and type, and the store as it was. */
  private void assertRejected(Api.Response response, int status, String problem) {
    assertRejected(response, status);
    assertThat(response.json().get("type")).as("type of %s", response).isEqualTo(PROBLEM_PREFIX + problem);
  }

  /** A 4xx problem+json of one of the given statuses, and the store as it was. */
  private void assertRejected(Api.Response response, int... statuses) {
    assertThat(response.status()).as("status of %s", response).isIn(Arrays.stream(statuses).boxed().toList());
    assertThat(response.contentType()).as("content type of %s", response).startsWith(Problem.MEDIA_TYPE);
    Map<String, Object> body = response.json();
    assertThat(body.get("type")).as("type of %s", response).asString().startsWith(PROBLEM_PREFIX);
    assertThat(body.get("title")).as("title of %s", response).asString().isNotBlank();
    assertThat(body.get("status")).as("status field of %s", response).isEqualTo(response.status());
    ProblemType type =
        ProblemType.ofUri((String) body.get("type"))
            .orElseThrow(() -> new AssertionError("a type of the list in " + response));
    assertThat(body.get("title")).as("title of %s", response).isEqualTo(type.title());
    assertThat(response.status()).as("status of %s", response).isEqualTo(type.status().getCode());
    assertThat(backend().snapshot()).as("store after %s", response).isEqualTo(storeBefore);
  }
}
