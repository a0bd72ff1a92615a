package flashclaim.appcheck;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * Firebase App Check on the claim route ({@code flashclaim.app-check.*}). A configuration that
 * would check nothing while claiming to (an unknown mode, a check without a project number, keys
 * fetched over plain HTTP from another host) refuses to start.
 *
 * @param mode {@code off} (default: no check), {@code monitor} (count and log missing or invalid
 *     tokens, refuse nothing) or {@code enforce} (401 {@code app-check-required} without a valid
 *     token)
 * @param projectNumber the Firebase project <em>number</em> (digits, not the project id): tokens
 *     must be issued by {@code https://firebaseappcheck.googleapis.com/<number>} for the audience
 *     {@code projects/<number>}; required unless the mode is {@code off}
 * @param jwksUrl where App Check publishes its public keys (JWKS); {@code https}, or {@code http}
 *     to a loopback address only (tests)
 * @param jwksCacheTtl how long fetched keys are used before they are fetched again (App Check's
 *     keys endpoint allows caching for 6 hours)
 * @param jwksMinRefreshInterval the least time between two fetches of the keys: a token with an
 *     unknown key id fetches them again, but a flood of such tokens costs at most one fetch per
 *     interval
 * @param jwksFetchTimeout connect and read timeout of one fetch of the keys
 * @param maxClockSkew tolerance on the token's expiry and issue times for clocks that differ
 */
@ConfigurationProperties("flashclaim.app-check")
public record AppCheckConfig(
    @Bindable(defaultValue = "off") String mode,
    @Nullable String projectNumber,
    @Bindable(defaultValue = "https://firebaseappcheck.googleapis.com/v1/jwks") String jwksUrl,
    @Bindable(defaultValue = "6h") Duration jwksCacheTtl,
    @Bindable(defaultValue = "30s") Duration jwksMinRefreshInterval,
    @Bindable(defaultValue = "5s") Duration jwksFetchTimeout,
    @Bindable(defaultValue = "60s") Duration maxClockSkew) {

  /** The issuer of App Check tokens, followed by the project number. */
  public static final String ISSUER_PREFIX = "https://firebaseappcheck.googleapis.com/";

  private static final Pattern PROJECT_NUMBER = Pattern.compile("[0-9]{1,20}");

  public AppCheckConfig {
    AppCheckMode checked = AppCheckMode.parse(mode);
    if (checked != AppCheckMode.OFF) {
      if (projectNumber == null || !PROJECT_NUMBER.matcher(projectNumber).matches()) {
        throw new IllegalArgumentException(
            "flashclaim.app-check.project-number must be the Firebase project number (digits)"
                + " when flashclaim.app-check.mode is " + mode);
      }
      requireSafeUrl(jwksUrl);
    }
    if (!positive(jwksCacheTtl)
        || jwksMinRefreshInterval.isNegative()
        || !positive(jwksFetchTimeout)
        || maxClockSkew.isNegative()) {
      throw new IllegalArgumentException(
          "flashclaim.app-check: jwks-cache-ttl and jwks-fetch-timeout must be positive,"
              + " jwks-min-refresh-interval and max-clock-skew not negative");
    }
  }

  /** The configured mode. */
  public AppCheckMode appCheckMode() {
    return AppCheckMode.parse(mode);
  }

  /** The issuer a valid token names. */
  public String issuer() {
    return ISSUER_PREFIX + projectNumber;
  }

  /** The audience a valid token includes. */
  public String audience() {
    return "projects/" + projectNumber;
  }

  private static void requireSafeUrl(String url) {
    URI uri;
    try {
      uri = URI.create(url);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("flashclaim.app-check.jwks-url is not a URL: " + url, e);
    }
    boolean safe =
        uri.getHost() != null
            && ("https".equals(uri.getScheme())
                || ("http".equals(uri.getScheme()) && isLoopback(uri.getHost())));
    if (!safe) {
      throw new IllegalArgumentException(
          "flashclaim.app-check.jwks-url must be https (http only to a loopback address): " + url);
    }
  }

  private static boolean isLoopback(String host) {
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  private static boolean positive(Duration d) {
    return !d.isNegative() && !d.isZero();
  }
}
