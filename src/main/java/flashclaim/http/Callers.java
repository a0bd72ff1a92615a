package flashclaim.http;

import io.micronaut.http.HttpRequest;
import io.micronaut.security.authentication.Authentication;

/** Who sent a request, as the filters that run after authentication see it. */
public final class Callers {
  /** The role of the admin routes ({@code @Secured}) and of the health details. */
  public static final String ADMIN_ROLE = "admin";

  private Callers() {}

  /** Whether the request carries a valid token (any caller that is not anonymous). */
  public static boolean isAuthenticated(HttpRequest<?> request) {
    return request.getUserPrincipal().isPresent();
  }

  /** Whether the request's token grants the admin role. */
  public static boolean isAdmin(HttpRequest<?> request) {
    return request
        .getUserPrincipal(Authentication.class)
        .map(a -> a.getRoles().contains(ADMIN_ROLE))
        .orElse(false);
  }
}
