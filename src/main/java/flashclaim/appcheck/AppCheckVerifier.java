package flashclaim.appcheck;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimNames;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import io.micronaut.context.annotation.Context;
import io.micronaut.core.annotation.Nullable;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks Firebase App Check tokens as Firebase specifies: a JWS signed with RS256 (no other
 * algorithm, never {@code none}) by one of App Check's published keys, header {@code typ} JWT,
 * issued by {@code https://firebaseappcheck.googleapis.com/<project number>}, its audience
 * including {@code projects/<project number>}, not expired. The signature check is plain CPU work;
 * only a fetch of the keys waits, and it runs on a thread of its own ({@link AppCheckKeys}).
 *
 * <p>Created at startup, so that an unsafe configuration stops the service from starting. Counts
 * every verdict; failures are logged, at most one line per second.
 */
@Context
public class AppCheckVerifier {
  private static final Logger LOG = LoggerFactory.getLogger(AppCheckVerifier.class);
  private static final Duration LOG_INTERVAL = Duration.ofSeconds(1);

  private final AppCheckMode mode;
  private final AppCheckKeys keys;
  private final Clock clock;
  private final DefaultJWTProcessor<KeysAtHand> processor = new DefaultJWTProcessor<>();
  private final LongAdder valid = new LongAdder();
  private final LongAdder missing = new LongAdder();
  private final LongAdder invalid = new LongAdder();
  private final AtomicLong lastLogMillis = new AtomicLong();
  private final AtomicLong unloggedFailures = new AtomicLong();

  public AppCheckVerifier(AppCheckConfig config, AppCheckKeys keys, Clock clock) {
    this.mode = config.appCheckMode();
    this.keys = keys;
    this.clock = clock;
    processor.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(JOSEObjectType.JWT));
    JWKSource<KeysAtHand> source = (selector, context) -> selector.select(context.keys());
    processor.setJWSKeySelector(new JWSVerificationKeySelector<>(JWSAlgorithm.RS256, source));
    DefaultJWTClaimsVerifier<KeysAtHand> claims =
        new DefaultJWTClaimsVerifier<>(
            // Mutable sets: nimbus asks them whether they contain null, which Set.of refuses.
            new HashSet<>(List.of(config.audience())),
            new JWTClaimsSet.Builder().issuer(config.issuer()).build(),
            new HashSet<>(List.of(JWTClaimNames.SUBJECT, JWTClaimNames.EXPIRATION_TIME)),
            new HashSet<>()) {
          @Override
          protected Date currentTime() {
            return Date.from(clock.instant());
          }
        };
    claims.setMaxClockSkew(Math.toIntExact(config.maxClockSkew().toSeconds()));
    processor.setJWTClaimsSetVerifier(claims);
    if (mode != AppCheckMode.OFF) {
      keys.prefetch();
    }
  }

  /** The configured mode. */
  public AppCheckMode mode() {
    return mode;
  }

  /**
   * The verdict on the tokens a request presents: none is {@link AppCheckVerdict.Missing}, several
   * are {@link AppCheckVerdict.Invalid} (which one would count is anybody's guess), one is {@link
   * #verify(String) checked}.
   */
  public CompletableFuture<AppCheckVerdict> verify(List<String> presented) {
    return inspect(presented).thenApply(this::counted);
  }

  /** As {@link #verify(List)}, of one token (null or blank: none). */
  public CompletableFuture<AppCheckVerdict> verify(@Nullable String token) {
    return inspect(token).thenApply(this::counted);
  }

  /**
   * The verdict of {@link #verify(List)}, not counted: for a step that may leave the request to
   * be verified, and counted, by the claim edge ({@link #countValid} counts it when it does not).
   * Completes at once unless the token names a key that is not at hand, which waits for a fetch
   * of the keys (bounded by {@code jwks-fetch-timeout}).
   */
  public CompletableFuture<AppCheckVerdict> inspect(List<String> presented) {
    if (presented.size() > 1) {
      return CompletableFuture.completedFuture(invalid("several tokens"));
    }
    return inspect(presented.isEmpty() ? null : presented.get(0));
  }

  private CompletableFuture<AppCheckVerdict> inspect(@Nullable String token) {
    if (token == null || token.isBlank()) {
      return CompletableFuture.completedFuture(new AppCheckVerdict.Missing());
    }
    SignedJWT jwt;
    try {
      jwt = SignedJWT.parse(token);
    } catch (ParseException e) { // garbage, an unsigned ("alg": "none") JWT, an encrypted one
      return CompletableFuture.completedFuture(invalid("not a signed JWT"));
    }
    // Checked before the keys are looked at, so that no such token can cause a fetch.
    JWSHeader header = jwt.getHeader();
    if (!JWSAlgorithm.RS256.equals(header.getAlgorithm())) {
      return CompletableFuture.completedFuture(invalid("alg " + header.getAlgorithm()));
    }
    if (header.getKeyID() == null) {
      return CompletableFuture.completedFuture(invalid("no kid"));
    }
    return keys.forKeyId(header.getKeyID()).thenApply(set -> check(jwt, set));
  }

  /**
   * Counts a valid token of a request answered without {@link #verify}: one whose token {@link
   * #inspect} found valid, or that was found so before.
   */
  public void countValid() {
    valid.increment();
  }

  /** Whether a request with this verdict goes on: always, unless the mode is {@code enforce}. */
  public boolean admits(AppCheckVerdict verdict) {
    return mode != AppCheckMode.ENFORCE || verdict instanceof AppCheckVerdict.Valid;
  }

  /** Valid tokens so far. */
  public long validCount() {
    return valid.sum();
  }

  /** Requests without a token so far. */
  public long missingCount() {
    return missing.sum();
  }

  /** Invalid tokens so far. */
  public long invalidCount() {
    return invalid.sum();
  }

  private AppCheckVerdict check(SignedJWT jwt, JWKSet set) {
    try {
      JWTClaimsSet claims = processor.process(jwt, new KeysAtHand(set));
      return new AppCheckVerdict.Valid(claims.getSubject());
    } catch (BadJOSEException | JOSEException | RuntimeException e) {
      return invalid(e.getMessage()); // whatever a token holds, it is refused, never a 500
    }
  }

  private static AppCheckVerdict invalid(String reason) {
    return new AppCheckVerdict.Invalid(reason);
  }

  private AppCheckVerdict counted(AppCheckVerdict verdict) {
    if (verdict instanceof AppCheckVerdict.Valid) {
      valid.increment();
      return verdict;
    }
    (verdict instanceof AppCheckVerdict.Missing ? missing : invalid).increment();
    long now = clock.millis();
    long last = lastLogMillis.get();
    if (now - last >= LOG_INTERVAL.toMillis() && lastLogMillis.compareAndSet(last, now)) {
      LOG.info(
          "App Check ({}): {}; {} other failures since the last line",
          mode.name().toLowerCase(Locale.ROOT),
          verdict instanceof AppCheckVerdict.Invalid bad ? "invalid token: " + bad.reason() : "no token",
          unloggedFailures.getAndSet(0));
    } else {
      unloggedFailures.incrementAndGet();
    }
    return verdict;
  }

  /** The keys a token is checked against, passed through nimbus' processor as its context. */
  private record KeysAtHand(JWKSet keys) implements SecurityContext {}
}
