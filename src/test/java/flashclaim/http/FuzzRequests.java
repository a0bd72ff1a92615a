package flashclaim.http;

import flashclaim.testing.RawHttp.Header;
import flashclaim.testing.Tokens;
import flashclaim.testing.Webhooks;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Generated HTTP requests to every route of the service, for {@link FuzzContract}: mostly the
 * route's own method, path and credential with a body close to a valid one, so that the requests
 * get past authentication and parsing into the domain rules, and a share of everything else:
 * malformed and deeply nested JSON, huge numbers, wrong types, unicode and control characters, ids
 * Firestore reserves ({@code __x__}), very long ids, percent-encoded path parts, odd methods, odd
 * Content-Types, duplicate headers, extreme timestamps, negative, zero and huge counts.
 *
 * <p>Left out on purpose: bodies above {@code micronaut.server.max-request-size} and the framing
 * headers ({@code Content-Length}, {@code Transfer-Encoding}, {@code Expect}, which {@link
 * flashclaim.testing.RawHttp} sets itself): the body size limits have their own tests. {@code
 * Accept-Encoding: *}, which may get an answer in an encoding the test cannot read.
 */
final class FuzzRequests {
  /** The seeded campaign that is open, with {@link #CODES} as its coupons. */
  static final String OPEN = "fz-open";

  /** The seeded campaign that has ended. */
  static final String ENDED = "fz-ended";

  /** Coupons of {@link #OPEN}. */
  static final List<String> CODES =
      List.of("fz-open-0", "fz-open-1", "fz-open-2", "fz-open-3", "fz-open-4", "fz-open-5");

  /**
   * Ids of campaigns that the seed does not have: each can be created once per seed, so there are
   * enough of them for creations to succeed between two reseeds.
   */
  static final List<String> NEW_CAMPAIGNS =
      List.of(
          "fz-new-0", "fz-new-1", "fz-new-2", "fz-new-3", "fz-new-4", "fz-new-5", "fz-new-6",
          "fz-new-7");

  /** Every route a request is generated for, as {@link Request#route()} names it. */
  static final List<String> ROUTES =
      List.of(
          "create",
          "add-coupons",
          "list",
          "patch",
          "changes",
          "show",
          "audit",
          "export",
          "user-claims",
          "coupon",
          "live",
          "active",
          "claim",
          "holdings",
          "webhook",
          "operations",
          "any-path");

  /** The order that redeemed one coupon of {@link #OPEN} in the seed. */
  static final String REDEEMING_ORDER = "order-1";

  /** The user who holds a coupon of {@link #OPEN} in the seed. */
  static final String SEEDED_USER = "seeded-user";

  private static final String FORGED_SECRET = "not-the-secret-of-the-service-0123456789abcdef";

  private FuzzRequests() {}

  /** One request as it goes on the wire; {@code route} names what it was generated for. */
  record Request(String route, String method, String target, List<Header> headers, byte[] body) {
    boolean hasHeader(String name) {
      return headers.stream().anyMatch(h -> h.name().equalsIgnoreCase(name));
    }

    @Override
    public String toString() {
      String text = body == null ? "(no body)" : new String(body, StandardCharsets.UTF_8);
      if (text.length() > 400) {
        text = text.substring(0, 400) + "... (" + body.length + " bytes)";
      }
      return route
          + ": "
          + method
          + " "
          + abbreviate(target)
          + "\n  "
          + headers.stream().map(h -> abbreviate(h.toString())).collect(Collectors.joining("\n  "))
          + "\n  "
          + escape(text);
    }
  }

  /** Requests to every route, the controllers' ones the most often. */
  static Arbitrary<Request> requests() {
    return Arbitraries.frequencyOf(
        Tuple.of(4, createCampaign()),
        Tuple.of(4, addCoupons()),
        Tuple.of(2, listCampaigns()),
        Tuple.of(4, patchCampaign()),
        Tuple.of(1, adminRead("changes", "/v1/admin/campaigns/%s/changes")),
        Tuple.of(2, adminRead("show", "/v1/admin/campaigns/%s")),
        Tuple.of(1, adminRead("audit", "/v1/admin/campaigns/%s/audit")),
        Tuple.of(2, adminRead("export", "/v1/admin/campaigns/%s/claims")),
        Tuple.of(2, userClaims()),
        Tuple.of(2, coupon()),
        Tuple.of(2, adminRead("live", "/v1/admin/campaigns/%s/live")),
        Tuple.of(1, activeCampaigns()),
        Tuple.of(4, claim()),
        Tuple.of(2, holdings()),
        Tuple.of(4, webhook()),
        Tuple.of(2, operations()),
        Tuple.of(1, anyPath()));
  }

  // ------------------------------------------------------------------ routes

  private static Arbitrary<Request> createCampaign() {
    Arbitrary<String> body =
        object(
            field(
                "id",
                Arbitraries.frequencyOf(
                    Tuple.of(
                        8,
                        Arbitraries.of(NEW_CAMPAIGNS).map(FuzzRequests::quote)),
                    Tuple.of(1, Arbitraries.just(quote(OPEN))),
                    Tuple.of(2, pathIds().map(FuzzRequests::quote)))),
            field(
                "name",
                Arbitraries.frequencyOf(
                    Tuple.of(
                        6,
                        Arbitraries.of("Fuzz sale", "n", "Soldes d'\u00e9t\u00e9 \uD83D\uDE00")
                            .map(FuzzRequests::quote)),
                    Tuple.of(1, oddStrings().map(FuzzRequests::quote)))),
            field(
                "perUserLimit",
                Arbitraries.frequencyOf(
                    Tuple.of(3, Arbitraries.integers().between(-2, 102).map(String::valueOf)),
                    Tuple.of(1, oddNumbers()))),
            field("startsAt", timestamps()),
            field("endsAt", timestamps()));
    return post("create", Arbitraries.just("/v1/admin/campaigns"), body, adminAuth());
  }

  private static Arbitrary<Request> addCoupons() {
    Arbitrary<String> codes =
        Arbitraries.frequencyOf(
                Tuple.of(
                    16,
                    Arbitraries.of("fz-c-1", "fz-c-2", CODES.get(0), "A.b-c_9")
                        .map(FuzzRequests::quote)),
                Tuple.of(1, oddStrings().map(FuzzRequests::quote)),
                Tuple.of(1, Arbitraries.just("null")),
                Tuple.of(1, oddJson()))
            .list()
            .ofMaxSize(6)
            .map(list -> "[" + String.join(",", list) + "]");
    Arbitrary<String> generate =
        object(
            field(
                "count",
                Arbitraries.frequencyOf(
                    Tuple.of(
                        4,
                        Arbitraries.integers()
                            .between(-2, FuzzContract.MAX_CODES + 2)
                            .map(String::valueOf)),
                    Tuple.of(1, oddNumbers()))),
            field(
                "prefix",
                Arbitraries.frequencyOf(
                    Tuple.of(
                        6,
                        Arbitraries.of("", "P", "fz_", "_x", "-x", "a".repeat(20), "a".repeat(21))
                            .map(FuzzRequests::quote)),
                    Tuple.of(1, oddStrings().map(FuzzRequests::quote)))));
    Arbitrary<String> body =
        Arbitraries.frequencyOf(
            Tuple.of(
                4,
                object(
                    field(
                        "codes",
                        Arbitraries.frequencyOf(Tuple.of(5, codes), Tuple.of(1, oddJson()))))),
            Tuple.of(
                4,
                object(
                    field(
                        "generate",
                        Arbitraries.frequencyOf(Tuple.of(5, generate), Tuple.of(1, oddJson()))))),
            Tuple.of(1, object(field("codes", codes), field("generate", generate))));
    return post("add-coupons", campaignPath("/v1/admin/campaigns/%s/coupons"), body, adminAuth());
  }

  private static Arbitrary<Request> listCampaigns() {
    Arbitrary<String> query =
        Arbitraries.frequencyOf(
            Tuple.of(4, Arbitraries.just("")),
            Tuple.of(
                2,
                Arbitraries.of(
                    "?limit=1", "?limit=100", "?limit=0", "?limit=101", "?limit=x", "?limit=",
                    "?cursor=", "?cursor=YzE6MDow", "?cursor=%21", "?cursor=djE6MQ",
                    "?limit=1&cursor=YzE6OTk5OTk5OTk5OTk5OjA6eg")));
    return request(
        "list",
        method("GET"),
        withQuery(query.map(q -> "/v1/admin/campaigns" + q)),
        adminAuth(),
        noBody());
  }

  private static Arbitrary<Request> patchCampaign() {
    Arbitrary<String> body =
        object(
            field(
                "name",
                Arbitraries.frequencyOf(
                    Tuple.of(6, Arbitraries.of("Renamed", "n").map(FuzzRequests::quote)),
                    Tuple.of(1, oddStrings().map(FuzzRequests::quote)))),
            field("startsAt", Arbitraries.frequencyOf(Tuple.of(3, timestamps()), Tuple.of(1, Arbitraries.just("null")))),
            field("endsAt", Arbitraries.frequencyOf(Tuple.of(3, timestamps()), Tuple.of(1, Arbitraries.just("null")))),
            field(
                "perUserLimit",
                Arbitraries.frequencyOf(
                    Tuple.of(3, Arbitraries.integers().between(-1, 102).map(String::valueOf)),
                    Tuple.of(1, oddNumbers()))),
            field("paused", Arbitraries.of("true", "false", "null", "1", "\"true\"")),
            field("reopen", Arbitraries.of("true", "false", "null")),
            field("id", Arbitraries.of(quote(OPEN), quote(ENDED), quote("other"), "null")));
    Arbitrary<String> accepted = // on a seeded campaign, mostly
        Arbitraries.of(
            "{\"paused\":true}",
            "{\"paused\":false}",
            "{\"name\":\"Renamed\"}",
            "{\"perUserLimit\":5}",
            "{\"endsAt\":null,\"reopen\":true}",
            "{}");
    Arbitrary<Body> patch =
        Combinators.combine(
                Arbitraries.frequencyOf(Tuple.of(2, accepted), Tuple.of(3, body))
                    .map(FuzzRequests::utf8),
                Arbitraries.frequencyOf(
                    Tuple.of(3, Arbitraries.just(Optional.of("application/merge-patch+json"))),
                    Tuple.of(3, Arbitraries.just(Optional.of("application/json"))),
                    Tuple.of(1, Arbitraries.of(Optional.of("text/plain"), Optional.<String>empty()))))
            .as(Body::new);
    return request(
        "patch",
        method("PATCH"),
        campaignPath("/v1/admin/campaigns/%s"),
        adminAuth(),
        Arbitraries.frequencyOf(Tuple.of(6, patch), Tuple.of(1, jsonBody(oddJson()))));
  }

  private static Arbitrary<Request> adminRead(String route, String template) {
    return request(route, method("GET"), campaignPath(template), adminAuth(), noBody());
  }

  /** A user's claims: the seeded holder, users without claims, odd and encoded ids. */
  private static Arbitrary<Request> userClaims() {
    Arbitrary<String> user =
        Arbitraries.frequencyOf(
            Tuple.of(
                6,
                Arbitraries.of(
                    SEEDED_USER, "u1", "nobody", "caf%C3%A9%20%F0%9F%98%80", "a%7Cb", "u".repeat(512))),
            Tuple.of(3, pathIds()));
    Arbitrary<String> path =
        withQuery(
            Combinators.combine(campaignIds(), user)
                .as((c, u) -> "/v1/admin/campaigns/" + c + "/users/" + u + "/claims"));
    return request("user-claims", method("GET"), path, adminAuth(), noBody());
  }

  /**
   * A code's holder: mostly a seeded code in its own campaign (free, claimed or redeemed), else
   * unknown and odd codes in any campaign.
   */
  private static Arbitrary<Request> coupon() {
    Arbitrary<String> seeded =
        Arbitraries.frequencyOf(
            Tuple.of(6, Arbitraries.of(CODES).map(c -> OPEN + "/coupons/" + c)),
            Tuple.of(1, Arbitraries.just(ENDED + "/coupons/" + ENDED + "-0")));
    Arbitrary<String> code =
        Arbitraries.frequencyOf(
            Tuple.of(2, Arbitraries.of(CODES)),
            Tuple.of(2, Arbitraries.of("NOPE", "A.b-c_9", "-x", ".x")),
            Tuple.of(3, pathIds()));
    Arbitrary<String> any = Combinators.combine(campaignIds(), code).as((c, k) -> c + "/coupons/" + k);
    Arbitrary<String> path =
        withQuery(
            Arbitraries.frequencyOf(Tuple.of(3, seeded), Tuple.of(2, any))
                .map(p -> "/v1/admin/campaigns/" + p));
    return request("coupon", method("GET"), path, adminAuth(), noBody());
  }

  private static Arbitrary<Request> activeCampaigns() {
    return request(
        "active",
        method("GET"),
        withQuery(Arbitraries.just("/v1/admin/live")),
        adminAuth(),
        noBody());
  }

  private static Arbitrary<Request> claim() {
    // The claim route takes any body and ignores it.
    Arbitrary<Body> body =
        Arbitraries.frequencyOf(Tuple.of(3, noBody()), Tuple.of(1, jsonBody(oddJson())));
    return request(
        "claim", method("POST"), campaignPath("/v1/campaigns/%s/claims"), userAuth(), body);
  }

  private static Arbitrary<Request> holdings() {
    return request(
        "holdings",
        method("GET"),
        campaignPath("/v1/campaigns/%s/claims/me"),
        userAuth(),
        noBody());
  }

  /**
   * Deliveries, mostly with a valid signature over the exact bytes sent, so they reach the rules.
   */
  private static Arbitrary<Request> webhook() {
    Arbitrary<String> delivery =
        object(
            field(
                "code",
                Arbitraries.frequencyOf(
                    Tuple.of(12, Arbitraries.of(CODES).map(FuzzRequests::quote)),
                    Tuple.of(1, Arbitraries.just(quote("fz-ended-0"))),
                    Tuple.of(1, oddStrings().map(FuzzRequests::quote)))),
            field(
                "orderId",
                Arbitraries.frequencyOf(
                    Tuple.of(
                        12,
                        Arbitraries.of(REDEEMING_ORDER, "order-2", "#1001")
                            .map(FuzzRequests::quote)),
                    Tuple.of(1, oddStrings().map(FuzzRequests::quote)))),
            field(
                "event",
                Arbitraries.frequencyOf(
                    Tuple.of(12, Arbitraries.of("redeemed", "cancelled").map(FuzzRequests::quote)),
                    Tuple.of(
                        1,
                        Arbitraries.of("REDEEMED", "", "refunded", "redeemed ")
                            .map(FuzzRequests::quote)))),
            field(
                "campaignId",
                Arbitraries.frequencyOf(
                    // Mostly the open campaign, whose claimed coupons a delivery can act on.
                    Tuple.of(6, Arbitraries.just(quote(OPEN))),
                    Tuple.of(2, Arbitraries.just(quote(ENDED))),
                    Tuple.of(2, Arbitraries.just("null")),
                    Tuple.of(2, pathIds().map(FuzzRequests::quote)))));
    Arbitrary<byte[]> bytes = mutated(delivery);
    Arbitrary<Optional<String>> contentType = contentType();
    Arbitrary<Signer> signer =
        Arbitraries.frequencyOf(
            Tuple.of(
                20,
                Arbitraries.<Signer>just(
                    body -> List.of(signature(body, Instant.now(), Webhooks.SECRET)))),
            Tuple.of(1, Arbitraries.<Signer>just(body -> List.of())),
            Tuple.of(
                1,
                Arbitraries.<Signer>just(
                    body -> List.of(signature(body, Instant.now(), FORGED_SECRET)))),
            Tuple.of(
                1,
                Arbitraries.<Signer>just(
                    body ->
                        List.of(
                            signature(
                                body, Instant.now().minus(Duration.ofHours(2)), Webhooks.SECRET)))),
            Tuple.of(
                1,
                Arbitraries.<Signer>just(
                    body ->
                        List.of(
                            signature(body, Instant.now(), Webhooks.SECRET),
                            signature(body, Instant.now(), FORGED_SECRET)))),
            Tuple.of(
                1,
                headerValues()
                    .map(value -> (Signer) body -> List.of(new Header(Webhooks.HEADER, value)))));
    Arbitrary<Request> fuzzed =
        Combinators.combine(
                method("POST"),
                withQuery(Arbitraries.just(Webhooks.PATH)),
                bytes,
                contentType,
                signer,
                extraHeaders())
            .as(
                (method, path, body, type, sign, extra) -> {
                  List<Header> headers = new ArrayList<>(sign.headers(body));
                  type.ifPresent(t -> headers.add(new Header("Content-Type", t)));
                  headers.addAll(extra);
                  return new Request("webhook", method, path, headers, body);
                });
    // Each of the fuzzed delivery's parts is odd now and then, and few fuzzed deliveries are whole
    // (a run of 1,000 requests had about 4.5 accepted, none in one run of ten): a share is a
    // delivery a shop would send, about a seeded coupon, which its state may still refuse.
    Arbitrary<Request> whole =
        Combinators.combine(
                Arbitraries.of(CODES),
                Arbitraries.of(REDEEMING_ORDER, "order-2"),
                Arbitraries.of("redeemed", "cancelled"))
            .as(
                (code, order, event) -> {
                  byte[] body = utf8(Webhooks.body(OPEN, code, order, event));
                  return new Request(
                      "webhook",
                      "POST",
                      Webhooks.PATH,
                      List.of(
                          signature(body, Instant.now(), Webhooks.SECRET),
                          new Header("Content-Type", "application/json")),
                      body);
                });
    return Arbitraries.frequencyOf(Tuple.of(3, fuzzed), Tuple.of(1, whole));
  }

  /** Management endpoints and static resources, which anyone may ask for. */
  private static Arbitrary<Request> operations() {
    Arbitrary<String> path =
        Arbitraries.of(
            "/health",
            "/health/liveness",
            "/health/readiness",
            "/health/nothing",
            "/prometheus",
            "/swagger/flashclaim-v1.yml",
            "/swagger/nothing.yml",
            "/swagger-ui/index.html",
            "/swagger-ui/nothing",
            "/dashboard/",
            "/dashboard/index.html",
            "/dashboard/dashboard.js",
            "/dashboard/dashboard.css",
            "/dashboard/nothing.js",
            "/admin/",
            "/admin/index.html",
            "/admin/admin.js",
            "/admin/admin.css",
            "/admin/nothing.js",
            "/",
            "/favicon.ico");
    Arbitrary<Auth> auth =
        Arbitraries.frequencyOf(
            Tuple.of(3, noAuth()), Tuple.of(1, adminAuth()), Tuple.of(1, badAuth()));
    return request("operations", method("GET"), withQuery(path), auth, noBody());
  }

  /** Any path made of the service's words and odd segments, with any method. */
  private static Arbitrary<Request> anyPath() {
    Arbitrary<String> segment =
        Arbitraries.frequencyOf(
            Tuple.of(
                4,
                Arbitraries.of(
                    "v1",
                    "admin",
                    "campaigns",
                    "claims",
                    "me",
                    "live",
                    "audit",
                    "coupons",
                    "users",
                    "webhooks",
                    "redemptions",
                    "health",
                    "dashboard",
                    "swagger")),
            Tuple.of(2, pathIds()));
    Arbitrary<String> path = segment.list().ofMaxSize(6).map(s -> "/" + String.join("/", s));
    Arbitrary<Auth> auth =
        Arbitraries.frequencyOf(
            Tuple.of(1, noAuth()), Tuple.of(1, adminAuth()), Tuple.of(1, userAuth()));
    Arbitrary<Body> body =
        Arbitraries.frequencyOf(Tuple.of(2, noBody()), Tuple.of(1, jsonBody(oddJson())));
    return request("any-path", anyMethod(), withQuery(path), auth, body);
  }

  // ------------------------------------------------------------------ request parts

  /** The credential part of a request's headers. */
  @FunctionalInterface
  private interface Auth {
    List<Header> headers();
  }

  /** A body with its Content-Type (none when empty). */
  private record Body(byte[] bytes, Optional<String> contentType) {}

  /** The signature headers of a webhook body. */
  @FunctionalInterface
  private interface Signer {
    List<Header> headers(byte[] body);
  }

  private static Arbitrary<Request> post(
      String route, Arbitrary<String> path, Arbitrary<String> json, Arbitrary<Auth> auth) {
    return request(route, method("POST"), path, auth, jsonBody(json));
  }

  private static Arbitrary<Request> request(
      String route,
      Arbitrary<String> method,
      Arbitrary<String> path,
      Arbitrary<Auth> auth,
      Arbitrary<Body> body) {
    return Combinators.combine(method, path, auth, body, extraHeaders())
        .as(
            (m, p, a, b, extra) -> {
              List<Header> headers = new ArrayList<>(a.headers());
              b.contentType().ifPresent(t -> headers.add(new Header("Content-Type", t)));
              headers.addAll(extra);
              return new Request(route, m, p, headers, b.bytes());
            });
  }

  private static Arbitrary<String> method(String usual) {
    return Arbitraries.frequencyOf(Tuple.of(12, Arbitraries.just(usual)), Tuple.of(1, anyMethod()));
  }

  private static Arbitrary<String> anyMethod() {
    return Arbitraries.of(
        "GET",
        "POST",
        "PUT",
        "DELETE",
        "PATCH",
        "HEAD",
        "OPTIONS",
        "TRACE",
        "FOO",
        "get",
        "PROPFIND",
        "M-SEARCH");
  }

  /** A path with a campaign id put in, sometimes with a trailing slash or a query. */
  private static Arbitrary<String> campaignPath(String template) {
    return withQuery(campaignIds().map(id -> String.format(template, id)));
  }

  private static Arbitrary<String> withQuery(Arbitrary<String> path) {
    Arbitrary<String> suffix =
        Arbitraries.frequencyOf(
            Tuple.of(12, Arbitraries.just("")),
            Tuple.of(
                1,
                Arbitraries.of(
                    "?",
                    "?x=1",
                    "?id=__x__",
                    "?limit=-1&limit=99999999999",
                    "?%zz",
                    "?a=%00",
                    "#frag")));
    return Combinators.combine(path, suffix).as(String::concat);
  }

  /** Campaign ids as they appear in a path: mostly the seeded ones. */
  private static Arbitrary<String> campaignIds() {
    return Arbitraries.frequencyOf(
        Tuple.of(5, Arbitraries.of(OPEN, ENDED)),
        Tuple.of(1, Arbitraries.of("fz-new-0", "fz-new-1")),
        Tuple.of(3, pathIds()));
  }

  /**
   * Odd campaign ids as path segments: made-up valid ones, ids Firestore reserves, very long ones,
   * percent-encoded ones, and raw bytes no well-formed request line holds.
   */
  private static Arbitrary<String> pathIds() {
    return Arbitraries.frequencyOf(
        Tuple.of(3, Arbitraries.strings().withChars("abcxyz019-_").ofMinLength(1).ofMaxLength(30)),
        Tuple.of(3, reservedIds()),
        Tuple.of(1, Arbitraries.of(65, 1_500, 1_501, 3_000).map("a"::repeat)),
        Tuple.of(
            2,
            Arbitraries.of(
                "%5F%5Fx%5F%5F",
                "%2F",
                "a%2Fb",
                "%2E",
                "%2E%2E",
                ".",
                "..",
                "caf%C3%A9",
                "%F0%9F%98%80",
                "a%20b",
                "a%00b",
                "a%0Ab",
                "%ED%A0%80",
                "%FF",
                "a;b=c",
                "a+b",
                "~",
                "a:b",
                "@",
                "%25",
                "%u0041")),
        Tuple.of(
            1,
            Arbitraries.of(
                "a b",
                "caf\u00e9",
                "\uD83D\uDE00",
                "%",
                "%zz",
                "a%G0",
                "a\tb",
                "a\"b",
                "a<b>",
                "\\")));
  }

  private static Arbitrary<String> reservedIds() {
    return Arbitraries.oneOf(
        Arbitraries.of("__x__", "__", "___", "____", "__a__b__", "__.__", "__-__"),
        Arbitraries.strings().withChars("abc-_").ofMaxLength(10).map(s -> "__" + s + "__"));
  }

  private static Arbitrary<Auth> adminAuth() {
    return Arbitraries.frequencyOf(
        Tuple.of(12, Arbitraries.just(bearer(Tokens.admin()))),
        Tuple.of(1, userAuth()),
        Tuple.of(1, noAuth()),
        Tuple.of(1, badAuth()));
  }

  private static Arbitrary<Auth> userAuth() {
    Arbitrary<Auth> user =
        Arbitraries.frequencyOf(
                Tuple.of(
                    8,
                    Arbitraries.of(
                        SEEDED_USER, "u1", "u2", "u3", "admin", "caf\u00e9 \uD83D\uDE00")),
                Tuple.of(
                    1,
                    Arbitraries.of(
                        "u".repeat(512), "u".repeat(513), "\uD800", "a\u0000b", " ", "")),
                Tuple.of(1, oddStrings()))
            .map(sub -> bearer(Tokens.user(sub)));
    return Arbitraries.frequencyOf(
        Tuple.of(12, user),
        Tuple.of(1, Arbitraries.just(bearer(Tokens.admin()))),
        Tuple.of(1, noAuth()),
        Tuple.of(1, badAuth()));
  }

  private static Arbitrary<Auth> noAuth() {
    return Arbitraries.<Auth>just(List::of);
  }

  private static Arbitrary<Auth> badAuth() {
    String valid = Tokens.admin();
    return Arbitraries.<Auth>of(
        bearer(Tokens.mint("admin", List.of("admin"), Duration.ofMinutes(-5), Tokens.SECRET)),
        bearer(Tokens.mint("admin", List.of("admin"), Duration.ofHours(1), FORGED_SECRET)),
        bearer(Tokens.mint(null, List.of(), Duration.ofHours(1), Tokens.SECRET)),
        bearer("garbage"),
        bearer(""),
        bearer(valid.substring(0, valid.length() - 3)),
        bearer("a".repeat(5_000)),
        () -> List.of(new Header("Authorization", "Basic YWRtaW46YWRtaW4=")),
        () -> List.of(new Header("Authorization", "bearer " + valid)),
        () -> List.of(new Header("Authorization", "Bearer")),
        () ->
            List.of(
                new Header("Authorization", "Bearer " + valid),
                new Header("Authorization", "Bearer garbage")),
        () -> List.of(new Header("Authorization", "Bearer " + valid + ", Bearer " + valid)));
  }

  private static Auth bearer(String token) {
    return () -> List.of(new Header("Authorization", "Bearer " + token));
  }

  private static Arbitrary<Body> noBody() {
    return Arbitraries.just(new Body(null, Optional.<String>empty()));
  }

  private static Arbitrary<Body> jsonBody(Arbitrary<String> json) {
    return Combinators.combine(mutated(json), contentType()).as(Body::new);
  }

  private static Arbitrary<Optional<String>> contentType() {
    return Arbitraries.frequencyOf(
        Tuple.of(20, Arbitraries.just(Optional.of("application/json"))),
        Tuple.of(
            3,
            Arbitraries.of(
                    "application/json; charset=utf-8",
                    "application/json; charset=latin1",
                    "APPLICATION/JSON",
                    "application/problem+json",
                    "application/merge-patch+json",
                    "text/plain",
                    "application/xml",
                    "application/x-www-form-urlencoded",
                    "multipart/form-data; boundary=x",
                    "multipart/form-data",
                    "*/*",
                    "",
                    "json",
                    "a/b/c",
                    "application/json, text/plain",
                    "application/json; x=\"unclosed")
                .map(Optional::of)),
        Tuple.of(1, Arbitraries.just(Optional.<String>empty())));
  }

  /** Headers besides the credential and the Content-Type: Accept, request ids, keys, duplicates. */
  private static Arbitrary<List<Header>> extraHeaders() {
    Arbitrary<Header> header =
        Arbitraries.frequencyOf(
            Tuple.of(
                2,
                Arbitraries.of(
                        "application/json",
                        "application/problem+json",
                        "text/html",
                        "application/xml",
                        "*/*",
                        "",
                        "garbage",
                        "application/json;q=0")
                    .map(v -> new Header("Accept", v))),
            Tuple.of(2, headerValues().map(v -> new Header("X-Request-Id", v))),
            Tuple.of(2, idempotencyKeys().map(v -> new Header("Idempotency-Key", v))),
            Tuple.of(
                1,
                Arbitraries.of("gzip", "deflate", "br", "identity", "garbage")
                    .map(v -> new Header("Content-Encoding", v))),
            // Encodings the test can read back: "*" may get Snappy or Brotli.
            Tuple.of(
                1,
                Arbitraries.of("gzip", "deflate", "gzip;q=0", "identity", "")
                    .map(v -> new Header("Accept-Encoding", v))),
            // Another site's Origin: refused by the framework's CORS filter (403) while the
            // service is addressed as localhost, so seldom, to let the others through.
            Tuple.of(
                1,
                Arbitraries.of("https://evil.example", "null").map(v -> new Header("Origin", v))),
            Tuple.of(2, headerValues().map(v -> new Header("X-Forwarded-For", v))),
            Tuple.of(2, headerValues().map(v -> new Header("X-Anything", v))));
    return Arbitraries.frequencyOf(
        Tuple.of(3, Arbitraries.just(List.<Header>of())),
        Tuple.of(2, header.list().ofMinSize(1).ofMaxSize(3)));
  }

  private static Arbitrary<String> idempotencyKeys() {
    return Arbitraries.frequencyOf(
        Tuple.of(4, Arbitraries.of("key-1", "key-2", "\"key-1\"")),
        Tuple.of(2, Arbitraries.of("", "\"", "\"\\x\"", "k".repeat(256), "caf\u00e9", "a\u0001b")),
        Tuple.of(1, headerValues()));
  }

  /** Header values: no CR or LF (they would end the header), anything else. */
  private static Arbitrary<String> headerValues() {
    return Arbitraries.frequencyOf(
        Tuple.of(3, Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(40)),
        Tuple.of(
            1,
            Arbitraries.of(
                "caf\u00e9", "\u0000", "a\u0001b", "\u007f", "x".repeat(200), "x".repeat(7_000))));
  }

  // ------------------------------------------------------------------ JSON bodies

  /** A named field of a generated object; left out now and then. */
  private record Field(String name, Arbitrary<String> value) {}

  private static Field field(String name, Arbitrary<String> value) {
    return new Field(name, value);
  }

  /**
   * A JSON object with the fields, each left out now and then, a share of them replaced with a
   * value of any type, sometimes with an unknown or a repeated field.
   */
  private static Arbitrary<String> object(Field... fields) {
    List<Arbitrary<String>> members = new ArrayList<>();
    for (Field f : fields) {
      Arbitrary<String> value =
          Arbitraries.frequencyOf(Tuple.of(12, f.value()), Tuple.of(1, oddJson()));
      members.add(
          Arbitraries.frequencyOf(
              Tuple.of(20, value.map(v -> quote(f.name()) + ":" + v)),
              Tuple.of(1, Arbitraries.just("")),
              Tuple.of(
                  1, value.map(v -> quote(f.name()) + ":" + v + "," + quote(f.name()) + ":" + v))));
    }
    members.add(
        Arbitraries.frequencyOf(
            Tuple.of(12, Arbitraries.just("")),
            Tuple.of(1, oddJson().map(v -> quote("unknown") + ":" + v))));
    return Combinators.combine(members)
        .as(
            parts ->
                parts.stream()
                    .filter(p -> !p.isEmpty())
                    .collect(Collectors.joining(",", "{", "}")));
  }

  /** The JSON text as bytes, now and then broken or replaced. */
  private static Arbitrary<byte[]> mutated(Arbitrary<String> json) {
    Arbitrary<byte[]> intact = json.map(FuzzRequests::utf8);
    Arbitrary<byte[]> broken =
        Combinators.combine(
                json,
                Arbitraries.integers().between(0, 10_000),
                Arbitraries.integers().between(0, 9))
            .as(FuzzRequests::breakJson);
    return Arbitraries.frequencyOf(
        Tuple.of(12, intact),
        Tuple.of(2, broken),
        Tuple.of(
            1,
            Arbitraries.of(
                utf8(""),
                utf8(" "),
                utf8("null"),
                utf8("[]"),
                utf8("\"x\""),
                utf8("42"),
                utf8("true"),
                new byte[] {(byte) 0xFF, (byte) 0xFE, 0, 0},
                new byte[] {'{', '"', (byte) 0xC3, '"', ':', '1', '}'},
                utf8("[".repeat(100_000)),
                utf8("{\"a\":".repeat(20_000) + "1" + "}".repeat(20_000)),
                utf8("1" + "0".repeat(100_000)),
                utf8("\"" + "\\u0000".repeat(1_000) + "\"")),
            Tuple.of(1, Arbitraries.bytes().array(byte[].class).ofMaxSize(200))));
  }

  private static byte[] breakJson(String json, int at, int how) {
    int cut = json.isEmpty() ? 0 : at % json.length();
    String broken =
        switch (how) {
          case 0 -> json.substring(0, cut);
          case 1 -> "[" + json + "]";
          case 2 -> "\uFEFF" + json;
          case 3 -> json + ",}";
          case 4 -> json.substring(0, cut) + "\u0000" + json.substring(cut);
          case 5 -> json.substring(0, cut) + "\"" + json.substring(cut);
          case 6 -> json.replace(":", ": " + "[".repeat(2_000));
          case 7 -> json + json;
          case 8 -> json.replace("\"", "'");
          default -> json.substring(0, cut) + "\n\t/* comment */" + json.substring(cut);
        };
    return utf8(broken);
  }

  /** A JSON value of any type, scalars and shallow containers. */
  private static Arbitrary<String> oddJson() {
    Arbitrary<String> scalar =
        Arbitraries.oneOf(
            oddStrings().map(FuzzRequests::quote),
            oddNumbers(),
            Arbitraries.of("true", "false", "null"),
            timestamps());
    return Arbitraries.frequencyOf(
        Tuple.of(6, scalar),
        Tuple.of(1, scalar.list().ofMaxSize(3).map(l -> "[" + String.join(",", l) + "]")),
        Tuple.of(1, scalar.map(v -> "{\"v\":" + v + "}")),
        Tuple.of(
            1,
            Arbitraries.of(
                "[]",
                "{}",
                "[[[[[[[[[[]]]]]]]]]]",
                "[" + "[".repeat(3_000) + "]".repeat(3_000) + "]")));
  }

  /** Numbers as JSON text: edges of int and long, fractions, exponents far out of range. */
  private static Arbitrary<String> oddNumbers() {
    return Arbitraries.frequencyOf(
        Tuple.of(
            3,
            Arbitraries.of(
                "0",
                "-0",
                "1",
                "-1",
                "2",
                "10",
                "11",
                "100",
                "101",
                "2147483647",
                "2147483648",
                "-2147483648",
                "-2147483649",
                "9223372036854775807",
                "9223372036854775808",
                "-9223372036854775809",
                "1.0",
                "1.5",
                "0.1",
                "1e2",
                "1E400",
                "-1e400",
                "1e-400",
                "4.9e-324",
                "1.7976931348623157e309",
                "01",
                "+1",
                ".5",
                "NaN",
                "Infinity",
                "-Infinity",
                "0x10")),
        Tuple.of(1, Arbitraries.of(1_000, 5_000, 50_000).map(n -> "9".repeat(n))),
        Tuple.of(2, Arbitraries.longs().map(String::valueOf)));
  }

  /**
   * Text that breaks rules: control characters, lone surrogates, reserved and dotted ids, text just
   * past a length limit, injection-looking text, anything at all.
   */
  private static Arbitrary<String> oddStrings() {
    return Arbitraries.frequencyOf(
        Tuple.of(
            4,
            Arbitraries.of(
                "",
                " ",
                "a",
                "__x__",
                "__",
                "____",
                ".",
                "..",
                "a/b",
                "a.b",
                "/",
                "caf\u00e9",
                "\uD83D\uDE00",
                "\u0000",
                "a\u0000b",
                "\n",
                "\t",
                "\u007f",
                "\u0085",
                "\u2028",
                "\uFEFF",
                "\u202Ex",
                "\uD800",
                "\uDC00x",
                "x\uD83D",
                "a".repeat(64),
                "a".repeat(65),
                "a".repeat(128),
                "a".repeat(129),
                "a".repeat(200),
                "a".repeat(201),
                "a".repeat(1_501),
                "\u00e9".repeat(800),
                "%2F",
                "../..",
                "<script>alert(1)</script>",
                "' OR 1=1 --",
                "${jndi:ldap://x/a}",
                "null",
                "true",
                "1",
                "-1",
                "2030-01-01T00:00:00Z",
                "redeemed",
                OPEN,
                CODES.get(1))),
        Tuple.of(2, Arbitraries.strings().ofMaxLength(40)),
        Tuple.of(1, Arbitraries.strings().all().ofMaxLength(20)));
  }

  /** Instants as JSON: plausible ones, both stores' edges and beyond, and malformed ones. */
  private static Arbitrary<String> timestamps() {
    Arbitrary<String> edges =
        Arbitraries.of(
            "2020-01-01T00:00:00Z",
            "2099-01-01T00:00:00Z",
            "0001-01-01T00:00:00Z",
            "0000-12-31T23:59:59.999999999Z",
            "9999-12-31T23:59:59.999999999Z",
            "+10000-01-01T00:00:00Z",
            "-0001-01-01T00:00:00Z",
            "-1000000000-01-01T00:00:00Z",
            "+1000000000-12-31T23:59:59.999999999Z",
            "-4713-11-24T00:00:00Z",
            "+294276-12-31T23:59:59Z",
            "+294277-01-01T00:00:00Z",
            "1970-01-01T00:00:00Z",
            "2030-01-01T00:00:00+01:00",
            "2030-13-01T00:00:00Z",
            "2030-02-30T00:00:00Z",
            "2030-01-01T24:00:00Z",
            "2030-01-01",
            "2030-01-01T00:00:00",
            "2030-01-01T00:00:60Z",
            "2030-01-01T00:00:00.1234567891Z",
            "yesterday",
            "");
    Arbitrary<String> any =
        Arbitraries.longs()
            .between(Instant.MIN.getEpochSecond(), Instant.MAX.getEpochSecond())
            .map(s -> Instant.ofEpochSecond(s).toString());
    Arbitrary<String> near =
        Arbitraries.longs()
            .between(-400L * 365 * 86_400, 400L * 365 * 86_400)
            .map(s -> Instant.now().plusSeconds(s).toString());
    return Arbitraries.frequencyOf(
            Tuple.of(6, Arbitraries.just((String) null)),
            Tuple.of(4, near),
            Tuple.of(2, edges),
            Tuple.of(1, any))
        .map(t -> t == null ? "null" : quote(t));
  }

  // ------------------------------------------------------------------ text

  private static Header signature(byte[] body, Instant at, String secret) {
    return new Header(Webhooks.HEADER, Webhooks.signature(body, at.getEpochSecond(), secret));
  }

  /** A JSON string literal: control characters and lone surrogates escaped, the rest as it is. */
  static String quote(String text) {
    StringBuilder json = new StringBuilder("\"");
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"' || c == '\\') {
        json.append('\\').append(c);
      } else if (c < 0x20 || Character.isSurrogate(c) && !validPairAt(text, i)) {
        json.append(String.format("\\u%04x", (int) c));
      } else {
        json.append(c);
        if (Character.isHighSurrogate(c)) {
          json.append(text.charAt(++i));
        }
      }
    }
    return json.append('"').toString();
  }

  private static boolean validPairAt(String text, int i) {
    return Character.isHighSurrogate(text.charAt(i))
        && i + 1 < text.length()
        && Character.isLowSurrogate(text.charAt(i + 1));
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static String abbreviate(String text) {
    return text.length() > 200
        ? text.substring(0, 200) + "... (" + text.length() + " chars)"
        : text;
  }

  /** Control characters made visible, for failure messages. */
  private static String escape(String text) {
    StringBuilder out = new StringBuilder();
    text.codePoints()
        .forEach(
            c -> {
              if (c < 0x20 || c == 0x7f) {
                out.append("\\x").append(HexFormat.of().toHexDigits((byte) c));
              } else {
                out.appendCodePoint(c);
              }
            });
    return out.toString();
  }
}
