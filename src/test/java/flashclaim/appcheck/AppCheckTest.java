package flashclaim.appcheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.Payload;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.SignedJWT;
import flashclaim.testing.Api;
import flashclaim.testing.AppCheckIssuer;
import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.MultiInstanceTest;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.Tokens;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Firebase App Check on the claim route, against keys and a JWKS endpoint the test serves itself
 * ({@link AppCheckIssuer}), with {@value MultiInstanceTest#INSTANCES} instances in {@code enforce}
 * mode on one store: every kind of forged, expired, misdirected, unsigned, wrongly signed or
 * malformed token is refused with 401 {@code app-check-required} and writes nothing; genuine
 * tokens claim; {@code monitor} mode lets everything through and counts it exactly; a rotated key
 * is picked up; a flood of unknown key ids costs a bounded number of fetches; unsafe
 * configurations refuse to start.
 */
class AppCheckTest extends MultiInstanceTest {
  static final String REQUIRED = "urn:flashclaim:problem:app-check-required";
  static final Duration MIN_REFRESH = Duration.ofMillis(500);

  private final StoreBackend backend = new FirestoreBackend();
  private final RSAKey key = AppCheckIssuer.newKey("key-1");
  private final AppCheckIssuer issuer = AppCheckIssuer.start(key);

  @Override
  protected StoreBackend backend() {
    return backend;
  }

  @Override
  protected Map<String, Object> instanceProperties() {
    return issuer.properties("enforce", MIN_REFRESH);
  }

  @AfterAll
  void stopIssuer() {
    issuer.close();
  }

  @BeforeEach
  void publishTheKey() {
    issuer.failWith(0);
    issuer.publish(key);
  }

  @Test
  void everyTokenButAGenuineOneIsRefusedAndWritesNothing() throws Exception {
    String campaign = newCampaign(1, 5);
    Map<String, String> invalid = invalidTokens();
    List<String> missing = List.of("(no header)", "");
    long invalidBefore = total(AppCheckVerifier::invalidCount);
    long missingBefore = total(AppCheckVerifier::missingCount);
    Map<String, String> before = backend.snapshot();

    // Every refused token through every instance, all at once, each with an Idempotency-Key: the
    // check runs before the idempotency record, the guard and the claim.
    List<Map.Entry<String, String>> cases = new ArrayList<>(invalid.entrySet());
    missing.forEach(m -> cases.add(Map.entry(m, m)));
    int sends = cases.size() * INSTANCES;
    List<Api.Response> answers =
        runAll(
            sends,
            i -> {
              Map.Entry<String, String> c = cases.get(i % cases.size());
              String token = c.getKey().equals("(no header)") ? null : c.getValue();
              return () -> claim(instance(i / cases.size()), campaign, "user-" + i, token);
            });
    for (int i = 0; i < sends; i++) {
      Api.Response answer = answers.get(i);
      String what = cases.get(i % cases.size()).getKey();
      assertThat(answer.status()).as(what + ": " + answer).isEqualTo(401);
      assertThat(answer.contentType()).as(what).startsWith("application/problem+json");
      assertThat(answer.json().get("type")).as(what).isEqualTo(REQUIRED);
    }
    // Two tokens in one request: which one would count is anybody's guess, so neither does.
    Api.Response twice =
        Api.send(
            claimRequest(instance(0), campaign, "two-tokens", null)
                .header(AppCheckIssuer.HEADER, AppCheckIssuer.token(key))
                .header(AppCheckIssuer.HEADER, AppCheckIssuer.token(key))
                .build());
    assertThat(twice.status()).as(twice.toString()).isEqualTo(401);

    assertThat(backend.snapshot()).as("nothing written").isEqualTo(before);
    assertThat(total(AppCheckVerifier::invalidCount) - invalidBefore)
        .isEqualTo(invalid.size() * INSTANCES + 1L);
    assertThat(total(AppCheckVerifier::missingCount) - missingBefore)
        .isEqualTo(missing.size() * (long) INSTANCES);

    // Genuine tokens claim, concurrently through every instance: exactly one coupon each.
    long validBefore = total(AppCheckVerifier::validCount);
    List<Api.Response> genuine =
        runAll(5, i -> () -> claim(instance(i), campaign, "genuine-" + i, AppCheckIssuer.token(key)));
    assertThat(genuine).extracting(Api.Response::status).containsOnly(201);
    assertThat(total(AppCheckVerifier::validCount) - validBefore).isEqualTo(5);
    assertStoreConsistent(campaign, 5);
    // Other routes do not ask for a token.
    assertThat(Api.get(instance(0), "/v1/campaigns/" + campaign + "/claims/me", Tokens.user("genuine-0")).status())
        .isEqualTo(200);
  }

  /**
   * App Check is the claim edge's first step: in {@code enforce} mode a claim without a valid
   * token is answered 401 where every other answer would have come sooner or cheaper, on every
   * instance: a pool each instance has proven empty (410 from memory), a campaign that has not
   * started (403), an unknown campaign (404) and a campaign id that breaks its rules (400).
   */
  @Test
  void appCheckRefusesBeforeEveryOtherClaimAnswer() throws Exception {
    String soldOut = newCampaign(1, 1);
    assertThat(claim(instance(0), soldOut, "first", AppCheckIssuer.token(key)).status())
        .isEqualTo(201);
    for (int i = 0; i < INSTANCES; i++) { // each instance proves the pool empty
      assertThat(claim(instance(i), soldOut, "late-" + i, AppCheckIssuer.token(key)).status())
          .isEqualTo(410);
    }
    String upcoming = getClass().getSimpleName().toLowerCase() + "-upcoming";
    Api.Response created =
        Api.post(
            instance(0),
            "/v1/admin/campaigns",
            Tokens.admin(),
            "{\"id\":\"" + upcoming + "\",\"name\":\"later\",\"startsAt\":\""
                + Instant.now().plus(Duration.ofDays(1))
                + "\"}");
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    Map<String, String> before = backend.snapshot();

    for (int i = 0; i < INSTANCES; i++) {
      for (String campaign : List.of(soldOut, upcoming, "no-such-campaign", "bad.id")) {
        for (String token : new String[] {null, "not-a-token"}) {
          Api.Response answer = claim(instance(i), campaign, "someone-" + i, token);
          assertThat(answer.status()).as(campaign + " " + token + ": " + answer).isEqualTo(401);
          assertThat(answer.json().get("type")).isEqualTo(REQUIRED);
        }
      }
    }
    assertThat(backend.snapshot()).as("nothing written").isEqualTo(before);
    // With a genuine token the same claims get their own answers.
    for (int i = 0; i < INSTANCES; i++) {
      assertThat(claim(instance(i), soldOut, "someone-" + i, AppCheckIssuer.token(key)).status())
          .isEqualTo(410);
      assertThat(claim(instance(i), upcoming, "someone-" + i, AppCheckIssuer.token(key)).status())
          .isEqualTo(403);
      assertThat(claim(instance(i), "bad.id", "someone-" + i, AppCheckIssuer.token(key)).status())
          .isEqualTo(400);
    }
  }

  @Test
  void monitorModeLetsEveryClaimThroughAndCountsEachToken() throws JOSEException {
    String campaign = newCampaign(1, 10);
    Map<String, Object> monitor = new HashMap<>(issuer.properties("monitor", MIN_REFRESH));
    try (ServiceInstance watching = startInstance(monitor)) {
      List<String> tokens = new ArrayList<>();
      tokens.add(null);
      tokens.add(null);
      tokens.addAll(List.copyOf(invalidTokens().values()).subList(0, 3));
      tokens.add(AppCheckIssuer.token(key));
      tokens.add(AppCheckIssuer.token(key));
      for (int i = 0; i < tokens.size(); i++) {
        Api.Response answer = claim(watching.url(), campaign, "monitored-" + i, tokens.get(i));
        assertThat(answer.status()).as(answer.toString()).isEqualTo(201);
      }
      AppCheckVerifier verifier = watching.context().getBean(AppCheckVerifier.class);
      assertThat(verifier.missingCount()).isEqualTo(2);
      assertThat(verifier.invalidCount()).isEqualTo(3);
      assertThat(verifier.validCount()).isEqualTo(2);
      String metrics = Api.get(watching.url(), "/prometheus", null).body();
      assertThat(sample(metrics, "flashclaim_appcheck_tokens_total\\{result=\"missing\",?\\}")).isEqualTo(2);
      assertThat(sample(metrics, "flashclaim_appcheck_tokens_total\\{result=\"invalid\",?\\}")).isEqualTo(3);
      assertThat(sample(metrics, "flashclaim_appcheck_tokens_total\\{result=\"valid\",?\\}")).isEqualTo(2);
      assertStoreConsistent(campaign, tokens.size());
    }
  }

  @Test
  void aRotatedKeyIsPickedUpAndAnOutageKeepsTheKeysAtHand() throws Exception {
    String campaign = newCampaign(1, 10);
    RSAKey rotated = AppCheckIssuer.newKey("key-2");
    String signedWithNewKey = AppCheckIssuer.token(rotated);
    // Before App Check publishes it, the new key is unknown on every instance.
    for (int i = 0; i < INSTANCES; i++) {
      assertThat(claim(instance(i), campaign, "early-" + i, signedWithNewKey).status()).isEqualTo(401);
    }
    issuer.publish(key, rotated);
    for (int i = 0; i < INSTANCES; i++) {
      // A fetch may have begun less than the minimum interval ago: then the next one is later.
      Api.Response answer = claimUntilNot401(instance(i), campaign, "rotated-" + i, signedWithNewKey);
      assertThat(answer.status()).as(answer.toString()).isEqualTo(201);
    }

    // The endpoint fails: the keys at hand stay in use, and the failures are counted.
    issuer.failWith(503);
    int fetches = issuer.fetches();
    String unknown = AppCheckIssuer.token(AppCheckIssuer.newKey("key-unknown"));
    AppCheckKeys keys = instances.get(0).context().getBean(AppCheckKeys.class);
    long failed = keys.failedFetchCount();
    Thread.sleep(MIN_REFRESH.toMillis() + 100);
    assertThat(claim(instance(0), campaign, "unknown-kid", unknown).status()).isEqualTo(401);
    assertThat(issuer.fetches()).isGreaterThan(fetches);
    assertThat(keys.failedFetchCount()).isEqualTo(failed + 1);
    assertThat(claim(instance(0), campaign, "after-outage-1", AppCheckIssuer.token(key)).status()).isEqualTo(201);
    assertThat(claim(instance(0), campaign, "after-outage-2", signedWithNewKey).status()).isEqualTo(201);
    assertStoreConsistent(campaign, INSTANCES + 2);
  }

  @Test
  void aFloodOfUnknownKeyIdsCostsAtMostOneFetchPerInterval() throws Exception {
    String campaign = newCampaign(1, 1);
    List<String> tokens = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      tokens.add(AppCheckIssuer.token(AppCheckIssuer.newKey("made-up-" + i)));
    }
    Map<String, String> before = backend.snapshot();
    int fetchesBefore = issuer.fetches();
    long started = System.nanoTime();
    List<Api.Response> answers =
        runAll(tokens.size() * 5, i -> () -> claim(instance(0), campaign, "flood-" + i, tokens.get(i % tokens.size())));
    long elapsedMillis = (System.nanoTime() - started) / 1_000_000;
    assertThat(answers).extracting(Api.Response::status).containsOnly(401);
    int fetches = issuer.fetches() - fetchesBefore;
    assertThat((long) fetches)
        .as("%d fetches in %d ms", fetches, elapsedMillis)
        .isPositive()
        .isLessThanOrEqualTo(elapsedMillis / MIN_REFRESH.toMillis() + 1);
    assertThat(backend.snapshot()).isEqualTo(before);
  }

  @Test
  void unsafeConfigurationsRefuseToStart() {
    Map<String, Map<String, Object>> unsafe = new LinkedHashMap<>();
    unsafe.put("enforce without a project number", Map.of("flashclaim.app-check.mode", "enforce"));
    unsafe.put("monitor without a project number", Map.of("flashclaim.app-check.mode", "monitor"));
    unsafe.put(
        "a project id instead of its number",
        Map.of("flashclaim.app-check.mode", "enforce", "flashclaim.app-check.project-number", "demo-flashclaim"));
    unsafe.put("an unknown mode", Map.of("flashclaim.app-check.mode", "enforced"));
    unsafe.put(
        "keys over plain HTTP from another host",
        Map.of(
            "flashclaim.app-check.mode", "enforce",
            "flashclaim.app-check.project-number", AppCheckIssuer.PROJECT_NUMBER,
            "flashclaim.app-check.jwks-url", "http://firebaseappcheck.googleapis.com/v1/jwks"));
    unsafe.forEach(
        (what, properties) ->
            assertThatThrownBy(() -> ServiceInstance.start(properties).close())
                .as(what)
                .satisfies(
                    e -> assertThat(messages(e)).as(what).contains("flashclaim.app-check.")));
  }

  /** Tokens that must be refused, by what is wrong with them. */
  private Map<String, String> invalidTokens() throws JOSEException {
    RSAKey impostor = AppCheckIssuer.newKey(key.getKeyID()); // same key id, another key
    Map<String, String> tokens = new LinkedHashMap<>();
    tokens.put("signed with another key under the same kid", AppCheckIssuer.token(impostor));
    tokens.put(
        "expired",
        AppCheckIssuer.token(
            key,
            h -> h,
            c -> c.issueTime(Date.from(Instant.now().minusSeconds(7200)))
                .expirationTime(Date.from(Instant.now().minusSeconds(600)))));
    tokens.put("no expiry", AppCheckIssuer.token(key, h -> h, c -> c.expirationTime(null)));
    tokens.put(
        "another project's audience",
        AppCheckIssuer.token(key, h -> h, c -> c.audience(List.of("projects/999999999999"))));
    tokens.put("no audience", AppCheckIssuer.token(key, h -> h, c -> c.audience((String) null)));
    tokens.put(
        "another project's issuer",
        AppCheckIssuer.token(key, h -> h, c -> c.issuer("https://firebaseappcheck.googleapis.com/999999999999")));
    tokens.put(
        "a Firebase Auth issuer",
        AppCheckIssuer.token(key, h -> h, c -> c.issuer("https://securetoken.google.com/demo-flashclaim")));
    tokens.put("no subject", AppCheckIssuer.token(key, h -> h, c -> c.subject(null)));
    tokens.put("no typ", AppCheckIssuer.token(key, h -> h.type(null), c -> c));
    tokens.put("typ at+jwt", AppCheckIssuer.token(key, h -> h.type(new JOSEObjectType("at+jwt")), c -> c));
    tokens.put("unknown kid", AppCheckIssuer.token(AppCheckIssuer.newKey("key-from-nowhere")));
    tokens.put("no kid", AppCheckIssuer.token(key, h -> h.keyID(null), c -> c));
    tokens.put("RS512 with the right key", rs512(key));
    tokens.put("HS256 keyed with the public key", hs256WithPublicKey(key));
    String genuine = AppCheckIssuer.token(key);
    String[] parts = genuine.split("\\.");
    for (String none : List.of("none", "None", "NONE", "nOnE")) {
      String header = "{\"alg\":\"" + none + "\",\"kid\":\"" + key.getKeyID() + "\",\"typ\":\"JWT\"}";
      String unsigned = Base64URL.encode(header.getBytes(StandardCharsets.UTF_8)) + "." + parts[1];
      tokens.put("alg " + none + ", no signature", unsigned + ".");
      tokens.put("alg " + none + ", a genuine signature", unsigned + "." + parts[2]);
    }
    tokens.put("a genuine header and payload, no signature", parts[0] + "." + parts[1] + ".");
    tokens.put("a genuine token's signature on another payload", parts[0] + "." + Base64URL.encode("{\"sub\":\"x\"}") + "." + parts[2]);
    tokens.put("signed, but the payload is not JSON", signedPayload(key, "not json"));
    tokens.put("signed, expiry as text", signedPayload(key, genuinePayloadWith("\"exp\":\\d+", "\"exp\":\"tomorrow\"")));
    tokens.put("signed, audience a number", signedPayload(key, genuinePayloadWith("\"aud\":\\[[^]]*]", "\"aud\":5")));
    tokens.put("header not an object", Base64URL.encode("[1]") + "." + parts[1] + "." + parts[2]);
    tokens.put("alg a number", Base64URL.encode("{\"alg\":5,\"kid\":\"key-1\"}") + "." + parts[1] + "." + parts[2]);
    tokens.put("garbage", "garbage");
    tokens.put("three dots of garbage", "a.b.c");
    tokens.put("a very long token", "x".repeat(4000));
    tokens.put("bearer prefix", "Bearer " + genuine);
    return tokens;
  }

  /** The JSON of genuine claims with the first match of {@code regex} replaced. */
  private static String genuinePayloadWith(String regex, String replacement) {
    String genuine = AppCheckIssuer.genuineClaims().build().toString();
    String changed = genuine.replaceFirst(regex, replacement);
    assertThat(changed).as(regex + " in " + genuine).isNotEqualTo(genuine);
    return changed;
  }

  /** A JWS signed with the right key over any payload. */
  private static String signedPayload(RSAKey key, String payload) throws JOSEException {
    JWSObject jws = new JWSObject(AppCheckIssuer.genuineHeader(key).build(), new Payload(payload));
    jws.sign(new com.nimbusds.jose.crypto.RSASSASigner(key));
    return jws.serialize();
  }

  private static String rs512(RSAKey key) throws JOSEException {
    SignedJWT jwt =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.RS512).keyID(key.getKeyID()).type(JOSEObjectType.JWT).build(),
            AppCheckIssuer.genuineClaims().build());
    jwt.sign(new com.nimbusds.jose.crypto.RSASSASigner(key));
    return jwt.serialize();
  }

  /** The classic confusion: an HMAC whose secret is the published public key. */
  private static String hs256WithPublicKey(RSAKey key) throws JOSEException {
    SignedJWT jwt =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(key.getKeyID()).type(JOSEObjectType.JWT).build(),
            AppCheckIssuer.genuineClaims().build());
    jwt.sign(new MACSigner(key.toRSAPublicKey().getEncoded()));
    return jwt.serialize();
  }

  private long total(java.util.function.ToLongFunction<AppCheckVerifier> count) {
    return instances.stream()
        .mapToLong(i -> count.applyAsLong(i.context().getBean(AppCheckVerifier.class)))
        .sum();
  }

  private static Api.Response claim(URI instance, String campaign, String user, String appCheck) {
    HttpRequest.Builder request = claimRequest(instance, campaign, user, appCheck);
    return Api.send(request.build());
  }

  private static HttpRequest.Builder claimRequest(URI instance, String campaign, String user, String appCheck) {
    HttpRequest.Builder request =
        Api.request(instance, "/v1/campaigns/" + campaign + "/claims", Tokens.user(user))
            .header("Idempotency-Key", UUID.randomUUID().toString())
            .POST(HttpRequest.BodyPublishers.noBody());
    if (appCheck != null) {
      request.header(AppCheckIssuer.HEADER, appCheck);
    }
    return request;
  }

  private static Api.Response claimUntilNot401(URI instance, String campaign, String user, String appCheck)
      throws InterruptedException {
    Api.Response answer = claim(instance, campaign, user, appCheck);
    for (int attempt = 0; attempt < 40 && answer.status() == 401; attempt++) {
      Thread.sleep(MIN_REFRESH.toMillis() / 2);
      answer = claim(instance, campaign, user, appCheck);
    }
    return answer;
  }

  private static long sample(String metrics, String series) {
    Matcher m = Pattern.compile("(?m)^" + series + " ([0-9.eE+-]+)$").matcher(metrics);
    return m.find() ? (long) Double.parseDouble(m.group(1)) : -1;
  }

  private static String messages(Throwable e) {
    StringBuilder all = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      all.append(t.getMessage()).append('\n');
    }
    return all.toString();
  }
}
