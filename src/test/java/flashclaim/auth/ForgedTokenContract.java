package flashclaim.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jwt.JWTClaimsSet;
import flashclaim.testing.Api;
import flashclaim.testing.Claimer;
import flashclaim.testing.MultiInstanceTest;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * G8 for bearer tokens, attacked from outside through one instance (an instance checks a token
 * alone, from its configuration): every forged, expired, malformed or foreign token is 401
 * problem+json (type {@code unauthorized}) on user and admin routes alike, sent many at once, and
 * nothing is written to the store. Valid tokens of the same mode pass, so the table can fail.
 * Subclassed per auth mode and store: a subclass makes the mode's valid tokens and its forgeries.
 */
public abstract class ForgedTokenContract extends MultiInstanceTest {
  static final String UNAUTHORIZED = "urn:flashclaim:problem:unauthorized";
  private static final int COUPONS = 20;

  /** Requests per route and forgery, all at once. */
  private static final int REPEATS = 6;

  protected String campaign;
  private int created;

  /** A valid token of the mode for this user, without roles. */
  protected abstract String userToken(String sub);

  /** A valid token of the mode with roles: [admin]. */
  protected abstract String adminToken();

  /** A valid token of the mode with these claims. */
  protected abstract String signedAsIssuer(JWTClaimsSet claims);

  /**
   * The forgeries of this mode: a name, and a token signed wrongly or not at all (the name says
   * what is wrong), on top of {@link #commonForgeries()}.
   */
  protected abstract Stream<Arguments> modeForgeries();

  @Override
  protected int instanceCount() {
    return 1;
  }

  @BeforeEach
  void campaignWithCoupons() {
    campaign = "forged-" + (++created);
    assertThat(createCampaign(instance(0), campaign).status()).isEqualTo(201);
    String codes =
        "{\"codes\":["
            + String.join(
                ",",
                IntStream.range(0, COUPONS)
                    .mapToObj(i -> "\"" + campaign + "-" + i + "\"")
                    .toList())
            + "]}";
    assertThat(
            Api.post(
                    instance(0),
                    "/v1/admin/campaigns/" + campaign + "/coupons",
                    adminToken(),
                    codes)
                .status())
        .isEqualTo(200);
  }

  /**
   * Forgeries of either mode: non-tokens, unsigned tokens ({@code alg} none in every spelling), the
   * published development secret, and tokens signed as the issuer but with unacceptable claims.
   */
  Stream<Arguments> commonForgeries() {
    Date tenMinutesAgo = Date.from(Instant.now().minus(Duration.ofMinutes(10)));
    Date inTenMinutes = Date.from(Instant.now().plus(Duration.ofMinutes(10)));
    return Stream.of(
        Arguments.of("no token at all", null),
        Arguments.of("empty", ""),
        Arguments.of("garbage", "garbage"),
        Arguments.of("three empty parts", ".."),
        Arguments.of("parts that are not base64", "a$.b$.c$"),
        Arguments.of("header that is not JSON", TokenForge.raw("not json", "{}", "")),
        Arguments.of("five parts (encrypted form)", "a.b.c.d.e"),
        Arguments.of("alg none", TokenForge.unsigned("none", adminClaims())),
        Arguments.of("alg None", TokenForge.unsigned("None", adminClaims())),
        Arguments.of("alg NONE", TokenForge.unsigned("NONE", adminClaims())),
        Arguments.of("alg nOnE", TokenForge.unsigned("nOnE", adminClaims())),
        Arguments.of(
            "HS256 with the published development secret",
            TokenForge.hmac(JWSAlgorithm.HS256, AuthConfig.DEVELOPMENT_SECRET, adminClaims())),
        Arguments.of(
            "no alg in the header",
            TokenForge.raw("{\"typ\":\"JWT\"}", adminClaims().toString(), "")),
        Arguments.of(
            "expired ten minutes ago",
            signedAdmin(
                c ->
                    c.issueTime(Date.from(tenMinutesAgo.toInstant().minus(Duration.ofHours(1))))
                        .expirationTime(tenMinutesAgo))),
        Arguments.of("no exp", signedAdmin(c -> c.expirationTime(null))),
        Arguments.of("exp not a number", signedAdmin(c -> c.claim("exp", "tomorrow"))),
        Arguments.of("nbf ten minutes ahead", signedAdmin(c -> c.notBeforeTime(inTenMinutes))),
        Arguments.of("iat ten minutes ahead", signedAdmin(c -> c.issueTime(inTenMinutes))),
        Arguments.of("no sub", signedAdmin(c -> c.subject(null))),
        Arguments.of("empty sub", signedAdmin(c -> c.subject(""))),
        Arguments.of("513-character sub", signedAdmin(c -> c.subject("m".repeat(513)))),
        Arguments.of("roles a string, not a list", signedAdmin(c -> c.claim("roles", "admin"))),
        Arguments.of(
            "roles a list of objects",
            signedAdmin(c -> c.claim("roles", List.of(Map.of("admin", true))))));
  }

  Stream<Arguments> forgeries() {
    return Stream.concat(commonForgeries(), modeForgeries());
  }

  /** Claims the issuer of this mode would sign for a user. */
  protected abstract JWTClaimsSet claims(String sub, List<String> roles);

  /** What a forger wants: the claims of an admin, "mallory". */
  protected JWTClaimsSet adminClaims() {
    return claims("mallory", List.of("admin"));
  }

  /** The admin claims, changed, signed as the issuer of this mode would sign them. */
  protected String signedAdmin(UnaryOperator<JWTClaimsSet.Builder> change) {
    return signedAsIssuer(change.apply(new JWTClaimsSet.Builder(adminClaims())).build());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("forgeries")
  void forgedTokensAreUnauthorizedEverywhereAndChangeNothing(String forgery, String token)
      throws Exception {
    Map<String, String> before = backend().snapshot();
    List<Route> routes = routes();
    int requests = routes.size() * REPEATS;

    List<Api.Response> responses =
        runAll(requests, i -> () -> routes.get(i % routes.size()).send(instance(0), token));

    for (Api.Response response : responses) {
      assertUnauthorized(response);
    }
    assertThat(backend().snapshot()).as("the store after %s", forgery).isEqualTo(before);
  }

  /**
   * Valid tokens of the mode pass on user and admin routes: the forgeries fail for what they forge.
   */
  @Test
  void validTokensPass() {
    Api.Response claimed = claim(instance(0), userToken("alice"));
    assertThat(claimed.status()).as(claimed.toString()).isEqualTo(201);
    Api.Response longest = claim(instance(0), userToken("u".repeat(512)));
    assertThat(longest.status()).as("a 512-character sub: " + longest).isEqualTo(201);
    Api.Response notBeforeWithinSkew =
        claim(
            instance(0),
            signedAsIssuer(
                new JWTClaimsSet.Builder(claims("bob", List.of()))
                    .notBeforeTime(Date.from(Instant.now().plusSeconds(10)))
                    .build()));
    assertThat(notBeforeWithinSkew.status()).as("nbf within the clock skew").isEqualTo(201);
    assertThat(createCampaign(instance(0), campaign + "-by-admin").status()).isEqualTo(201);

    assertStoreConsistent(campaign, 3);
  }

  /** Forged and valid tokens at once: exactly the valid users get a coupon; each forgery is 401. */
  @Test
  void forgedAndValidTokensAtOnce() throws Exception {
    List<String> forged = forgeries().map(a -> (String) a.get()[1]).toList();
    int valid = 12;
    int total = valid + forged.size();
    List<Api.Response> responses =
        runAll(
            total,
            i ->
                () ->
                    claim(instance(0), i < valid ? userToken("user-" + i) : forged.get(i - valid)));

    List<Api.Response> accepted = new ArrayList<>();
    for (int i = 0; i < total; i++) {
      if (i < valid) {
        accepted.add(responses.get(i));
      } else {
        assertUnauthorized(responses.get(i));
      }
    }
    assertThat(accepted).allSatisfy(r -> assertThat(r.status()).as(r.toString()).isEqualTo(201));
    assertStoreConsistent(campaign, valid);
    assertThat(backend().claims(campaign)).hasSize(valid);
  }

  /** A route and how to call it with a token. */
  record Route(String name, BiFunction<URI, String, Api.Response> call) {
    Api.Response send(URI instance, String token) {
      return call.apply(instance, token);
    }

    @Override
    public String toString() {
      return name;
    }
  }

  private List<Route> routes() {
    String codes = "{\"codes\":[\"" + campaign + "-forged\"]}";
    String newCampaign = "{\"id\":\"" + campaign + "-forged\",\"name\":\"x\",\"perUserLimit\":1}";
    return List.of(
        new Route("claim", (base, token) -> Api.post(base, claimsPath(), token, null)),
        new Route("my claim", (base, token) -> Api.get(base, claimsPath() + "/me", token)),
        new Route(
            "create campaign",
            (base, token) -> Api.post(base, "/v1/admin/campaigns", token, newCampaign)),
        new Route(
            "add coupons",
            (base, token) ->
                Api.post(base, "/v1/admin/campaigns/" + campaign + "/coupons", token, codes)),
        new Route(
            "audit",
            (base, token) -> Api.get(base, "/v1/admin/campaigns/" + campaign + "/audit", token)));
  }

  /**
   * Claims a coupon of the campaign with the token, as a client that honours Retry-After and sends
   * its ticket back: a 503 (a slow store on a loaded machine) is retried until a final answer.
   */
  private Api.Response claim(URI base, String token) {
    return Claimer.claimWithTokenUntilFinal(base, campaign, "the token's user", token).response();
  }

  private String claimsPath() {
    return "/v1/campaigns/" + campaign + "/claims";
  }

  private Api.Response createCampaign(URI base, String id) {
    return Api.post(
        base,
        "/v1/admin/campaigns",
        adminToken(),
        "{\"id\":\"" + id + "\",\"name\":\"" + id + "\",\"perUserLimit\":1}");
  }

  static void assertUnauthorized(Api.Response response) {
    assertThat(response.status()).as(response.toString()).isEqualTo(401);
    assertThat(response.contentType()).startsWith("application/problem+json");
    assertThat(response.json().get("type")).isEqualTo(UNAUTHORIZED);
  }
}
