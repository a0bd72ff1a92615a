package flashclaim.testing;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;

/** Signed bearer tokens for tests, as bin/mint-token makes them. */
public final class Tokens {
  /** The secret the test instances are configured with. */
  public static final String SECRET = "test-secret-for-flashclaim-tests-0123456789abcdef";

  private Tokens() {}

  public static String user(String sub) {
    return mint(sub, List.of(), Duration.ofHours(1), SECRET);
  }

  public static String admin() {
    return mint("admin", List.of("admin"), Duration.ofHours(1), SECRET);
  }

  /** A token with any subject, roles, lifetime (negative: already expired) and secret. */
  public static String mint(String sub, List<String> roles, Duration ttl, String secret) {
    Instant now = Instant.now();
    JWTClaimsSet claims =
        new JWTClaimsSet.Builder()
            .subject(sub)
            .claim("roles", roles)
            .issueTime(Date.from(now.minusSeconds(5)))
            .expirationTime(Date.from(now.plus(ttl)))
            .build();
    SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
    try {
      jwt.sign(new MACSigner(secret.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
    return jwt.serialize();
  }
}
