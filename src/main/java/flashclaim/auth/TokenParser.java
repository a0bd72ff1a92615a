package flashclaim.auth;

import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.security.token.Claims;
import io.micronaut.security.token.jwt.generator.claims.JwtClaimsSetAdapter;
import io.micronaut.security.token.jwt.validator.JsonWebTokenParser;
import jakarta.inject.Singleton;
import java.text.ParseException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a bearer token for micronaut-security-jwt, which then verifies its signature and claims.
 * Only a signed token (JWS, compact form) whose header names the mode's one algorithm ({@link
 * TokenPolicy#algorithm()}) and whose claims are well-formed JSON is read; anything else is no
 * token at all, so the request is unauthenticated (401). This keeps out what the library would
 * otherwise weigh: unsigned tokens ({@code alg} none in any spelling), encrypted tokens, and other
 * algorithms that a key would also verify (HS384 and HS512 with the HS256 secret, RS512 with an RSA
 * key, HS256 "signed" with a public key).
 */
@Singleton
@Replaces(JsonWebTokenParser.class)
final class TokenParser implements JsonWebTokenParser<JWT> {
  /** Far above any real token (Firebase ID tokens are about 1 KB), far below the header limit. */
  static final int MAX_LENGTH = 16 * 1024;

  private static final Logger LOG = LoggerFactory.getLogger(TokenParser.class);
  private final TokenPolicy policy;

  TokenParser(TokenPolicy policy) {
    this.policy = policy;
  }

  @Override
  public Optional<JWT> parse(String token) {
    return signed(token).map(JWT.class::cast);
  }

  @Override
  public Optional<Claims> parseClaims(String token) {
    return signed(token).flatMap(TokenParser::claims).map(JwtClaimsSetAdapter::new);
  }

  private Optional<SignedJWT> signed(String token) {
    if (token == null || token.length() > MAX_LENGTH) {
      return Optional.empty();
    }
    try {
      SignedJWT jwt = SignedJWT.parse(token);
      if (!policy.algorithm().equals(jwt.getHeader().getAlgorithm())) {
        LOG.debug(
            "Token refused: algorithm {} is not {}",
            jwt.getHeader().getAlgorithm(),
            policy.algorithm());
        return Optional.empty();
      }
      return claims(jwt).map(claims -> jwt);
    } catch (ParseException | RuntimeException e) { // whatever a stranger sends is no token
      LOG.debug("Token refused: {}", e.toString());
      return Optional.empty();
    }
  }

  private static Optional<JWTClaimsSet> claims(SignedJWT jwt) {
    try {
      return Optional.of(jwt.getJWTClaimsSet());
    } catch (ParseException | RuntimeException e) {
      LOG.debug("Token refused: its claims are malformed: {}", e.toString());
      return Optional.empty();
    }
  }
}
