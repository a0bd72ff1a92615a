package flashclaim.auth;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;
import java.util.Locale;

/**
 * How bearer tokens are checked ({@code flashclaim.auth.*}). {@link AuthStartupCheck} refuses to
 * start on a configuration that would let a forged token in.
 *
 * @param mode {@code local}: HS256 tokens signed with {@code hs256Secret} (development, tests, load
 *     runs; env {@code FLASHCLAIM_AUTH_MODE}); {@code firebase}: Firebase Auth ID tokens, RS256
 *     signed with the keys published at {@code jwksUrl}, issued for {@code projectId}. Nothing else
 *     starts.
 * @param hs256Secret the shared secret of local tokens, at least 32 bytes (env {@code
 *     FLASHCLAIM_AUTH_HS256_SECRET}); unused in {@code firebase} mode. The default is the published
 *     {@link #DEVELOPMENT_SECRET}, accepted only on a local store
 * @param projectId the Firebase project whose ID tokens are accepted in {@code firebase} mode: the
 *     issuer must be {@code https://securetoken.google.com/<projectId>} and the audience {@code
 *     <projectId>} (env {@code FLASHCLAIM_AUTH_PROJECT_ID}); default: the Firestore project {@code
 *     flashclaim.firestore.project-id}
 * @param jwksUrl where the public keys of {@code firebase} mode are fetched from (a JSON Web Key
 *     Set); default Google's keys of Firebase Auth
 * @param jwksTimeout the most fetching the key set may take (connecting, then reading); a request
 *     that needs the keys meanwhile waits at most this long and is refused if they do not come
 * @param jwksRefresh how long fetched keys are used before they are fetched again
 * @param clockSkew how far this instance's clock may be behind or ahead of the token issuer's: a
 *     token is accepted until {@code exp + clockSkew} and from {@code nbf - clockSkew}
 */
@ConfigurationProperties("flashclaim.auth")
public record AuthConfig(
    @Bindable(defaultValue = "local") String mode,
    @Bindable(defaultValue = DEVELOPMENT_SECRET) String hs256Secret,
    @Nullable String projectId,
    @Bindable(defaultValue = GOOGLE_JWKS_URL) String jwksUrl,
    @Bindable(defaultValue = "5s") Duration jwksTimeout,
    @Bindable(defaultValue = "5m") Duration jwksRefresh,
    @Bindable(defaultValue = "30s") Duration clockSkew) {

  /** The documented development secret. Never use it where real users are. */
  public static final String DEVELOPMENT_SECRET =
      "flashclaim-development-secret-change-me-0123456789";

  /** Google's public keys of Firebase Auth ID tokens. */
  public static final String GOOGLE_JWKS_URL =
      "https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com";

  static final String PREFIX = "flashclaim.auth";
  static final String MODE = PREFIX + ".mode";
  static final String HS256_SECRET = PREFIX + ".hs256-secret";
  static final String PROJECT_ID = PREFIX + ".project-id";
  static final String JWKS_URL = PREFIX + ".jwks-url";
  static final String CLOCK_SKEW = PREFIX + ".clock-skew";

  /** A property as an operator sets it: its name and its environment variable. */
  static String setting(String property) {
    return property + " (env " + property.toUpperCase(Locale.ROOT).replaceAll("[.-]", "_") + ")";
  }
}
