package flashclaim.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.micronaut.context.annotation.Property;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * User tokens for the start-up warm-up's own claims, minted in this process so that they pass the
 * same checks as a user's, until {@link #retire()}; then none is minted again.
 *
 * <ul>
 *   <li>{@code local} mode: signed with the configured HS256 secret, as any holder of that secret
 *       can sign them: the warm-up is given no power that the secret does not already give.
 *   <li>{@code firebase} mode: this process holds no key of Firebase's, so it makes one: an RSA key
 *       pair drawn at the warm-up's first token or the first fetch of the key set, whose private half never leaves this object. While
 *       the warm-up runs, the key set fetched from {@code flashclaim.auth.jwks-url} is handed to
 *       the token verifier with that public key added ({@link #withWarmUpKey}), under a random key
 *       id, so the warm-up's tokens take the real path (key set, key id, RS256, issuer, audience).
 *       {@link #retire()} forgets the private half and stops adding the public one; a key set
 *       fetched meanwhile may hold the public half until {@code flashclaim.auth.jwks-refresh}, which
 *       verifies nothing that anyone can still sign.
 * </ul>
 *
 * Tokens last a minute and carry no roles.
 */
@Singleton
public final class WarmUpTokens {
  private static final Logger LOG = LoggerFactory.getLogger(WarmUpTokens.class);
  private static final Duration LIFETIME = Duration.ofMinutes(1);
  private final TokenPolicy policy;
  private final byte[] secret;
  private final Clock clock;
  private RSAKey key; // firebase mode, from the first token or key set until retire(); guarded by this
  private boolean retired; // from the start when the warm-up is off; guarded by this

  WarmUpTokens(
      TokenPolicy policy,
      AuthConfig config,
      Clock clock,
      @Property(name = "flashclaim.warm-up.enabled", defaultValue = "true") boolean warmUp) {
    this.policy = policy;
    this.secret = config.hs256Secret().getBytes(StandardCharsets.UTF_8);
    this.clock = clock;
    this.retired = !warmUp;
  }

  /** A token of the user {@code subject}; empty once retired, or when no key could be made. */
  public Optional<String> mint(String subject) {
    Instant now = clock.instant();
    JWTClaimsSet.Builder claims =
        new JWTClaimsSet.Builder()
            .subject(subject)
            .issueTime(Date.from(now))
            .expirationTime(Date.from(now.plus(LIFETIME)));
    policy.issuer().ifPresent(claims::issuer);
    policy.audience().ifPresent(claims::audience);
    JWSHeader header;
    JWSSigner signer;
    try {
      synchronized (this) {
        if (retired) {
          return Optional.empty();
        }
        if (policy.mode() == AuthMode.LOCAL) {
          header = new JWSHeader(policy.algorithm());
          signer = new MACSigner(secret);
        } else {
          RSAKey rsa = key();
          header = new JWSHeader.Builder(policy.algorithm()).keyID(rsa.getKeyID()).build();
          signer = new RSASSASigner(rsa);
        }
      }
      SignedJWT jwt = new SignedJWT(header, claims.build());
      jwt.sign(signer);
      return Optional.of(jwt.serialize());
    } catch (JOSEException e) {
      LOG.warn("Start-up warm-up: could not sign a token: {}", e.toString());
      return Optional.empty();
    }
  }

  /** No token is minted from now on, and in firebase mode the key pair is forgotten. */
  public synchronized void retire() {
    retired = true;
    key = null;
  }

  /**
   * The key set {@code fetched} (JSON, as published at {@code flashclaim.auth.jwks-url}) with the
   * public half of the warm-up's key added while it has one; {@code fetched} as it is otherwise,
   * or when it is not a key set.
   */
  String withWarmUpKey(String fetched) {
    JWK added;
    synchronized (this) {
      if (retired || policy.mode() != AuthMode.FIREBASE) {
        return fetched;
      }
      try {
        added = key().toPublicJWK();
      } catch (JOSEException e) {
        LOG.warn("Start-up warm-up: could not make its key: {}", e.toString());
        return fetched;
      }
    }
    try {
      List<JWK> keys = new ArrayList<>(JWKSet.parse(fetched).getKeys());
      keys.add(added);
      return new JWKSet(keys).toString(true);
    } catch (ParseException e) {
      return fetched;
    }
  }

  /**
   * The warm-up's key pair, made at the first token or the first key set fetched, whichever comes
   * first (a probe or a request with a token may fetch the key set before the warm-up begins).
   */
  private RSAKey key() throws JOSEException {
    if (key == null) {
      byte[] id = new byte[12];
      new SecureRandom().nextBytes(id);
      key = new RSAKeyGenerator(2048).keyID("warm-up-" + HexFormat.of().formatHex(id)).generate();
    }
    return key;
  }
}
