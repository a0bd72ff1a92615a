package flashclaim.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import flashclaim.testing.Api;
import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.Tokens;
import io.micronaut.security.token.jwt.signature.jwks.JwksClient;
import java.nio.charset.StandardCharsets;
import java.security.interfaces.RSAPublicKey;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Forged tokens against instances in firebase mode, set by {@code flashclaim.auth.mode=firebase}
 * alone (no {@code firebase} environment): the test is the token issuer, with its own RSA key pair
 * whose public half it serves as a key set over HTTP. Unsigned tokens, HMAC tokens (with the local
 * secrets or with the public key as the secret), other RSA keys and algorithms, wrong key ids,
 * foreign issuers and audiences are all 401.
 */
class FirebaseTokenTest extends ForgedTokenContract {
  static final String PROJECT = "flashclaim-auth-test";
  static final String ISSUER = "https://securetoken.google.com/" + PROJECT;
  private static final String KID = "key-1";

  /** Started before the instances, which the base class starts before all tests. */
  private final KeySetServer keys = KeySetServer.serving(KID);

  /** Another key pair with the same key id. */
  private final RSAKey impostor = TokenForge.newRsaKey(KID);

  private final StoreBackend backend = new FirestoreBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }

  @Override
  protected Map<String, Object> instanceProperties() {
    return firebaseMode(keys.url());
  }

  /** Firebase mode with this key set; fetched again only after an hour, longer than the test. */
  static Map<String, Object> firebaseMode(String jwksUrl) {
    return Map.of(
        "flashclaim.auth.mode",
        "firebase",
        "flashclaim.auth.jwks-url",
        jwksUrl,
        "flashclaim.auth.jwks-refresh",
        "1h",
        "flashclaim.auth.project-id",
        PROJECT);
  }

  @AfterAll
  void stopKeyServer() {
    keys.close();
  }

  @Override
  protected JWTClaimsSet claims(String sub, List<String> roles) {
    return TokenForge.claims(sub, roles)
        .issuer(ISSUER)
        .audience(PROJECT)
        .claim("auth_time", Instant.now().minusSeconds(60).getEpochSecond())
        .claim("user_id", sub)
        .build();
  }

  @Override
  protected String signedAsIssuer(JWTClaimsSet claims) {
    return TokenForge.rsa(JWSAlgorithm.RS256, keys.key(), KID, claims);
  }

  @Override
  protected String userToken(String sub) {
    return signedAsIssuer(claims(sub, List.of()));
  }

  @Override
  protected String adminToken() {
    return signedAsIssuer(claims("admin", List.of("admin")));
  }

  @Override
  protected Stream<Arguments> modeForgeries() {
    JWTClaimsSet admin = adminClaims();
    byte[] publicDer = publicKey().getEncoded();
    byte[] publicPem = pem(publicDer).getBytes(StandardCharsets.US_ASCII);
    return Stream.of(
        Arguments.of(
            "HS256 signed with the public key (DER)",
            TokenForge.hmac(JWSAlgorithm.HS256, publicDer, KID, admin)),
        Arguments.of(
            "HS256 signed with the public key (PEM)",
            TokenForge.hmac(JWSAlgorithm.HS256, publicPem, KID, admin)),
        Arguments.of(
            "HS256 with the local secret the instances also have",
            TokenForge.hmac(JWSAlgorithm.HS256, Tokens.SECRET, admin)),
        Arguments.of(
            "RS256 with another key of the same kid",
            TokenForge.rsa(JWSAlgorithm.RS256, impostor, KID, admin)),
        Arguments.of(
            "RS256 with the right key, wrong kid",
            TokenForge.rsa(JWSAlgorithm.RS256, keys.key(), "key-2", admin)),
        Arguments.of(
            "RS512 with the right key", TokenForge.rsa(JWSAlgorithm.RS512, keys.key(), KID, admin)),
        Arguments.of(
            "PS256 with the right key", TokenForge.rsa(JWSAlgorithm.PS256, keys.key(), KID, admin)),
        Arguments.of(
            "foreign issuer",
            signedAdmin(c -> c.issuer("https://securetoken.google.com/other-project"))),
        Arguments.of("no issuer", signedAdmin(c -> c.issuer(null))),
        Arguments.of("foreign audience", signedAdmin(c -> c.audience("other-project"))),
        Arguments.of(
            "an audience besides the project",
            signedAdmin(c -> c.audience(List.of(PROJECT, "other-project")))),
        Arguments.of("no audience", signedAdmin(c -> c.audience((String) null))));
  }

  /**
   * A key server that never answers: requests that need the keys are refused (401) once the
   * configured timeout passes, rather than waiting for it.
   */
  @Test
  void aStuckKeyServerMeansUnauthorizedNotAHang() {
    try (KeySetServer stuck = KeySetServer.hanging()) {
      Map<String, Object> properties = new HashMap<>(backend.properties());
      properties.putAll(firebaseMode(stuck.url()));
      properties.put("flashclaim.auth.jwks-timeout", "1s");
      try (ServiceInstance instance = ServiceInstance.start(properties)) {
        // The library's own clients would wait without bound (no http-client in production).
        assertThat(instance.context().getBeansOfType(JwksClient.class))
            .singleElement()
            .isInstanceOf(TokenSignatures.BoundedJwksClient.class);
        for (int i = 0; i < 3; i++) {
          assertUnauthorized(
              Api.post(
                  instance.url(),
                  "/v1/campaigns/" + campaign + "/claims",
                  userToken("alice"),
                  null));
        }
        assertThat(stuck.fetches()).isPositive();
      }
    }
  }

  /** The keys are fetched once by the instance, not per request. */
  @Test
  void keysAreFetchedOncePerInstance() throws Exception {
    runAll(
        30,
        i ->
            () ->
                Api.get(
                    instance(0), "/v1/campaigns/" + campaign + "/claims/me", userToken("u" + i)));
    assertThat(keys.fetches()).isEqualTo(1);
  }

  private RSAPublicKey publicKey() {
    try {
      return keys.key().toRSAPublicKey();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String pem(byte[] der) {
    return "-----BEGIN PUBLIC KEY-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END PUBLIC KEY-----\n";
  }
}
