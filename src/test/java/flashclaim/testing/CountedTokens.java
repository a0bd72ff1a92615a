package flashclaim.testing;

import io.micronaut.context.annotation.Requires;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.security.token.Claims;
import io.micronaut.security.token.jwt.validator.GenericJwtClaimsValidator;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Test-only count of the tokens an instance verified, by subject, present where {@value #PROPERTY}
 * is true: micronaut-security-jwt asks every claims validator about each token whose signature it
 * has verified. It refuses none.
 */
@Singleton
@Requires(property = CountedTokens.PROPERTY, value = "true")
public final class CountedTokens<T> implements GenericJwtClaimsValidator<T> {
  public static final String PROPERTY = "flashclaim.test.counted-tokens";

  private final Map<String, AtomicInteger> verified = new ConcurrentHashMap<>();

  @Override
  public boolean validate(Claims claims, @Nullable T request) {
    verified
        .computeIfAbsent(String.valueOf(claims.get(Claims.SUBJECT)), s -> new AtomicInteger())
        .incrementAndGet();
    return true;
  }

  /** How many tokens of {@code subject} this instance verified the signature of. */
  public int verified(String subject) {
    AtomicInteger count = verified.get(subject);
    return count == null ? 0 : count.get();
  }
}
