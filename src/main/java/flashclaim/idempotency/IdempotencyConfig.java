package flashclaim.idempotency;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;
import io.micronaut.core.convert.format.ReadableBytes;
import io.micronaut.core.util.PathMatcher;
import java.time.Duration;
import java.util.List;

/**
 * Idempotency keys ({@code flashclaim.idempotency.*}).
 *
 * @param enabled whether POST requests honour the {@code Idempotency-Key} header
 * @param requiredRoutes request paths (Ant patterns) whose POSTs must carry a key; none by default,
 *     keys are optional everywhere
 * @param retention how long a completed result is replayed; its record then counts as absent and
 *     is deleted by the store's TTL policy
 * @param inFlightTimeout how long a record of a request that has not finished blocks its key;
 *     after it the request is taken as lost (its instance died) and the key may be used again
 * @param maxStoredBody the largest response body stored for replay; a larger result is stored
 *     without its body
 * @param retryAfter the Retry-After of the 409 that a repeat gets while the first is in flight
 */
@ConfigurationProperties("flashclaim.idempotency")
public record IdempotencyConfig(
    @Bindable(defaultValue = "true") boolean enabled,
    @Nullable List<String> requiredRoutes,
    @Bindable(defaultValue = "24h") Duration retention,
    @Bindable(defaultValue = "30s") Duration inFlightTimeout,
    @Bindable(defaultValue = "64KB") @ReadableBytes int maxStoredBody,
    @Bindable(defaultValue = "1s") Duration retryAfter) {

  public IdempotencyConfig {
    requiredRoutes =
        requiredRoutes == null
            ? List.of()
            : requiredRoutes.stream().filter(r -> !r.isBlank()).toList();
  }

  /** Whether a POST to this path must carry an Idempotency-Key. */
  public boolean requiresKey(String path) {
    return requiredRoutes.stream().anyMatch(pattern -> PathMatcher.ANT.matches(pattern, path));
  }
}
