package flashclaim.guard;

import flashclaim.Sha256;
import io.micronaut.core.annotation.Nullable;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/**
 * What one guard protects: a resource as one caller modifies it. Two requests conflict exactly when
 * their keys are equal. The key is built from the matched route, never from the raw path, so
 * spellings of one path (a trailing slash, percent-encoding) cannot dodge it:
 *
 * <ol>
 *   <li>The <em>canonical resource</em> is the route's template up to and including its first path
 *       variable, with that variable's value put in: the parent resource that every route below it
 *       modifies. {@code /v1/campaigns/{id}/claims} with id 42 is {@code /v1/campaigns/42}; {@code
 *       /v1/admin/campaigns/{id}/coupons} is {@code /v1/admin/campaigns/42}; {@code
 *       /campaigns/{c}/coupons/{k}/redeem} is {@code /campaigns/42}. A route without variables is
 *       its own canonical resource ({@code /v1/admin/campaigns}).
 *   <li>The <em>user prefix</em>: when the request is authenticated, the key is {@code "/" +
 *       urlencode(caller) + canonical resource}, the caller being the principal's name (the token
 *       subject); percent-encoding makes the caller exactly one segment, so no caller and resource
 *       can combine into another pair's key. An anonymous request's key is the canonical resource
 *       alone.
 * </ol>
 *
 * <p>So one user's double-click on "Claim Coupon" ({@code /alice/v1/campaigns/42} twice) conflicts,
 * while two users claiming in the same campaign ({@code /alice/v1/campaigns/42}, {@code
 * /bob/v1/campaigns/42}) never do. The same holds on admin routes: an admin's repeated or
 * concurrent submissions on one campaign are serialized, two admins are not (their writes are
 * idempotent or create-if-absent in the store anyway). An anonymous request on a route without
 * variables has no resource to guard: {@link #of} gives nothing and the request passes.
 */
public record GuardedResource(String key) {

  public GuardedResource {
    if (key == null || key.isEmpty()) {
      throw new IllegalArgumentException("a guarded resource needs a key");
    }
  }

  /**
   * The resource that a modifying request guards, or empty when it guards none (anonymous and no
   * path variable).
   *
   * @param caller the authenticated principal's name, or null for an anonymous request
   * @param routeTemplate the matched route's URI template, such as {@code /v1/campaigns/{id}/claims}
   * @param variables the values the route matched its variables with
   */
  public static Optional<GuardedResource> of(
      @Nullable String caller, String routeTemplate, Map<String, Object> variables) {
    Optional<String> canonical = canonicalWithVariable(routeTemplate, variables);
    if (caller == null) {
      return canonical.map(GuardedResource::new);
    }
    String resource = canonical.orElseGet(() -> withoutTrailingSlash(routeTemplate));
    return Optional.of(
        new GuardedResource("/" + URLEncoder.encode(caller, StandardCharsets.UTF_8) + resource));
  }

  /** SHA-256 of the key as hex: the id of the guard's document, whatever the key holds. */
  public String lockId() {
    return Sha256.hex(key);
  }

  /** The template cut after its first path variable, with the variable's value; empty if none. */
  private static Optional<String> canonicalWithVariable(
      String template, Map<String, Object> variables) {
    int open = template.indexOf('{');
    if (open < 0) {
      return Optional.empty();
    }
    int close = template.indexOf('}', open);
    String expression = template.substring(open + 1, close < 0 ? template.length() : close);
    char operator = expression.isEmpty() ? ' ' : expression.charAt(0);
    if (operator == '?' || operator == '&') {
      return Optional.empty(); // a query variable: no path variable at all
    }
    String name = expression.replaceFirst("^[+#./;]", "").replaceFirst("[:*].*$", "");
    Object value = variables.get(name);
    String separator = operator == '/' ? "/" : "";
    return Optional.of(
        template.substring(0, open) + separator + (value == null ? "" : value.toString()));
  }

  private static String withoutTrailingSlash(String path) {
    return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }
}
