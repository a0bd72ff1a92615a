package flashclaim.auth;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import flashclaim.testing.Tokens;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Forged tokens against instances in local mode (HS256 with the configured secret, {@link
 * Tokens#SECRET}): unsigned in every spelling of none, other secrets (the published development one
 * among them), other algorithms with the right secret, RSA keys. Subclassed per store.
 */
abstract class LocalTokenContract extends ForgedTokenContract {
  private static final RSAKey UNKNOWN_RSA = TokenForge.newRsaKey("unknown");

  @Override
  protected String userToken(String sub) {
    return Tokens.user(sub);
  }

  @Override
  protected String adminToken() {
    return Tokens.admin();
  }

  @Override
  protected JWTClaimsSet claims(String sub, List<String> roles) {
    return TokenForge.claims(sub, roles).build();
  }

  @Override
  protected String signedAsIssuer(JWTClaimsSet claims) {
    return TokenForge.hmac(JWSAlgorithm.HS256, Tokens.SECRET, claims);
  }

  @Override
  protected Stream<Arguments> modeForgeries() {
    JWTClaimsSet admin = adminClaims();
    String valid = signedAsIssuer(admin);
    String validSignature = valid.substring(valid.lastIndexOf('.') + 1);
    return Stream.of(
        Arguments.of(
            "alg none with the signature of a valid token",
            TokenForge.unsigned("none", admin) + validSignature),
        Arguments.of(
            "HS256 with another secret",
            TokenForge.hmac(
                JWSAlgorithm.HS256, "another-secret-of-the-right-length-0123456789", admin)),
        Arguments.of(
            "HS384 with the service's secret",
            TokenForge.hmac(JWSAlgorithm.HS384, Tokens.SECRET, admin)),
        Arguments.of(
            "HS512 with the service's secret",
            TokenForge.hmac(JWSAlgorithm.HS512, Tokens.SECRET, admin)),
        Arguments.of(
            "HS256 with the secret as base64",
            TokenForge.hmac(JWSAlgorithm.HS256, Base64.getEncoder().encode(secret()), null, admin)),
        Arguments.of(
            "RS256 with a key the service does not know",
            TokenForge.rsa(JWSAlgorithm.RS256, UNKNOWN_RSA, "unknown", admin)),
        Arguments.of(
            "alg hs256 (algorithm names are case-sensitive)",
            TokenForge.hmac(new JWSAlgorithm("hs256"), secret(), null, admin)),
        Arguments.of(
            "valid signature over a changed payload",
            swapPayload(valid, claims("mallory", List.of("admin", "owner")))));
  }

  private static byte[] secret() {
    return Tokens.SECRET.getBytes(StandardCharsets.UTF_8);
  }

  private static String swapPayload(String token, JWTClaimsSet claims) {
    String[] parts = token.split("\\.");
    String payload = TokenForge.raw("{}", claims.toString(), "").split("\\.")[1];
    return parts[0] + "." + payload + "." + parts[2];
  }
}
