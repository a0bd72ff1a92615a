package flashclaim.auth;

import com.nimbusds.jwt.JWTClaimsSet;
import flashclaim.claim.UserId;
import io.micronaut.security.token.Claims;
import io.micronaut.security.token.config.TokenConfiguration;
import io.micronaut.security.token.jwt.validator.GenericJwtClaimsValidator;
import io.micronaut.security.token.jwt.validator.JWTClaimsSetUtils;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The claims every accepted token must have, checked by micronaut-security-jwt after the signature
 * (besides its own checks): an expiry ({@code exp}) that has not passed; no {@code nbf} or {@code
 * iat} in the future; a subject of 1 to {@value UserId#MAX_LENGTH} characters (the user id); roles,
 * if any, as a list of strings; in firebase mode the issuer and the one audience of the configured
 * project. Times are compared with {@link TokenPolicy#clockSkew()} of slack. A token that fails is
 * no authentication: 401.
 */
@Singleton
final class TokenClaimsValidator<T> implements GenericJwtClaimsValidator<T> {
  private static final Logger LOG = LoggerFactory.getLogger(TokenClaimsValidator.class);

  private final TokenPolicy policy;
  private final String rolesClaim;
  private final Clock clock;

  TokenClaimsValidator(TokenPolicy policy, TokenConfiguration tokens, Clock clock) {
    this.policy = policy;
    this.rolesClaim = tokens.getRolesName();
    this.clock = clock;
  }

  @Override
  public boolean validate(Claims claims, T request) {
    Optional<String> refusal;
    try {
      refusal = refusal(JWTClaimsSetUtils.jwtClaimsSetFromClaims(claims), clock.instant());
    } catch (RuntimeException e) { // a claim of an unexpected type
      refusal = Optional.of("malformed claims: " + e);
    }
    refusal.ifPresent(reason -> LOG.debug("Token refused: {}", reason));
    return refusal.isEmpty();
  }

  /** Why the token is refused, or nothing when its claims are acceptable at {@code now}. */
  Optional<String> refusal(JWTClaimsSet claims, Instant now) {
    Instant late = now.minus(policy.clockSkew());
    Instant early = now.plus(policy.clockSkew());
    Date expiry = claims.getExpirationTime();
    if (expiry == null) {
      return Optional.of("no exp");
    }
    if (expiry.toInstant().isBefore(late)) {
      return Optional.of("expired");
    }
    if (after(claims.getNotBeforeTime(), early)) {
      return Optional.of("nbf in the future");
    }
    if (after(claims.getIssueTime(), early)) {
      return Optional.of("iat in the future");
    }
    String subject = claims.getSubject();
    if (subject == null || subject.isEmpty() || subject.length() > UserId.MAX_LENGTH) {
      return Optional.of("sub missing, empty or longer than " + UserId.MAX_LENGTH);
    }
    Object roles = claims.getClaim(rolesClaim);
    if (roles != null
        && !(roles instanceof List<?> list && list.stream().allMatch(String.class::isInstance))) {
      return Optional.of(rolesClaim + " is not a list of strings");
    }
    Optional<String> issuer = policy.issuer();
    if (issuer.isPresent() && !issuer.get().equals(claims.getIssuer())) {
      return Optional.of("foreign issuer");
    }
    Optional<String> audience = policy.audience();
    if (audience.isPresent() && !List.of(audience.get()).equals(claims.getAudience())) {
      return Optional.of("foreign audience");
    }
    return Optional.empty();
  }

  private static boolean after(Date time, Instant limit) {
    return time != null && time.toInstant().isAfter(limit);
  }
}
