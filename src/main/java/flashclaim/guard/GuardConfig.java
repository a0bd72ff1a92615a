package flashclaim.guard;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import io.micronaut.core.util.PathMatcher;
import java.time.Duration;
import java.util.List;

/**
 * The modification guard ({@code flashclaim.guard.*}).
 *
 * @param enabled whether POST, PUT, PATCH and DELETE requests on the covered routes are guarded
 * @param routes the covered request paths, as Ant patterns ({@code *} one segment, {@code **} any
 *     number); by default every admin campaign route. The claim route needs no guard: the store's
 *     per-slot claim record lets one claim of a user win (G2) and a repeat answers 200 with the
 *     same coupon (G4), and a guard would cost every claim two more store writes
 * @param ttl how long a guard holds before another request may remove it as stale (the guard of
 *     an instance that died before releasing it). Longer than any guarded request should take: a
 *     request still running past it loses its exclusivity.
 * @param retryAfter the Retry-After of the 409 that a concurrent modification gets
 */
@ConfigurationProperties("flashclaim.guard")
public record GuardConfig(
    @Bindable(defaultValue = "true") boolean enabled,
    @Bindable(defaultValue = "/v1/admin/campaigns,/v1/admin/campaigns/**")
        List<String> routes,
    @Bindable(defaultValue = "30s") Duration ttl,
    @Bindable(defaultValue = "1s") Duration retryAfter) {

  public GuardConfig {
    routes = routes == null ? List.of() : List.copyOf(routes);
  }

  /** Whether a request to this path is guarded (when its method modifies). */
  public boolean covers(String path) {
    for (String pattern : routes) {
      // The literal start of the pattern rules most paths out without the matcher's parsing:
      // this runs for every claim, which no default pattern covers.
      int literal = literalLength(pattern);
      if (path.regionMatches(0, pattern, 0, literal) && PathMatcher.ANT.matches(pattern, path)) {
        return true;
      }
    }
    return false;
  }

  /** The length of the part of an Ant pattern before its first wildcard. */
  private static int literalLength(String pattern) {
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '*' || c == '?' || c == '{') {
        return i;
      }
    }
    return pattern.length();
  }
}
