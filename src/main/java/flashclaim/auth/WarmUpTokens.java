package flashclaim.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Optional;

/**
 * User tokens for the start-up warm-up's own claims, minted in this process so that they pass the
 * same checks as a user's. In {@code local} mode they are signed with the configured HS256 secret,
 * as any holder of that secret can sign them: the warm-up is given no power that the secret does
 * not already give. In {@code firebase} mode this process holds no key that Firebase's key set
 * accepts, so it mints none ({@link #mint} is empty), and the warm-up drives the claim pipeline up
 * to its token check only. Tokens last a minute and carry no roles.
 */
@Singleton
public final class WarmUpTokens {
  private static final Duration LIFETIME = Duration.ofMinutes(1);
  private final TokenPolicy policy;
  private final byte[] secret;
  private final Clock clock;

  WarmUpTokens(TokenPolicy policy, AuthConfig config, Clock clock) {
    this.policy = policy;
    this.secret = config.hs256Secret().getBytes(StandardCharsets.UTF_8);
    this.clock = clock;
  }

  /** A token of the user {@code subject}, or empty when this mode's tokens cannot be minted here. */
  public Optional<String> mint(String subject) {
    if (policy.mode() != AuthMode.LOCAL) {
      return Optional.empty();
    }
    Instant now = clock.instant();
    JWTClaimsSet claims =
        new JWTClaimsSet.Builder()
            .subject(subject)
            .issueTime(Date.from(now))
            .expirationTime(Date.from(now.plus(LIFETIME)))
            .build();
    SignedJWT jwt = new SignedJWT(new JWSHeader(policy.algorithm()), claims);
    try {
      jwt.sign(new MACSigner(secret));
    } catch (JOSEException e) {
      throw new IllegalStateException("could not sign a warm-up token", e);
    }
    return Optional.of(jwt.serialize());
  }
}
