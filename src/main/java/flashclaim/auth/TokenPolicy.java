package flashclaim.auth;

import static flashclaim.auth.AuthConfig.setting;

import com.nimbusds.jose.JWSAlgorithm;
import io.micronaut.context.annotation.Property;
import io.micronaut.context.exceptions.ConfigurationException;
import jakarta.inject.Singleton;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * What a bearer token must be to be accepted, resolved once from {@link AuthConfig}: the mode, its
 * one signature algorithm, the Firebase project a token must be issued for, and the clock skew
 * allowed. Creating it refuses a configuration under which the mode has no usable signature
 * configuration, naming the setting.
 */
@Singleton
final class TokenPolicy {
  /** The least secret size HMAC-SHA256 gets its full strength from. */
  static final int MIN_SECRET_BYTES = 32;

  /** More skew than this would keep expired tokens alive for minutes. */
  static final Duration MAX_CLOCK_SKEW = Duration.ofMinutes(5);

  private static final String FIREBASE_ISSUER_PREFIX = "https://securetoken.google.com/";

  private final AuthMode mode;
  private final String projectId;
  private final Duration clockSkew;

  /**
   * @param cloudProject the Google Cloud project of the deployment ({@code
   *     flashclaim.firestore.project-id}, from {@code GOOGLE_CLOUD_PROJECT}), the Firebase project
   *     unless {@code flashclaim.auth.project-id} names another
   */
  TokenPolicy(
      AuthConfig config,
      @Property(name = "flashclaim.firestore.project-id", defaultValue = "demo-flashclaim")
          String cloudProject) {
    this.mode = AuthMode.of(config.mode());
    this.projectId =
        Optional.ofNullable(config.projectId())
            .filter(p -> !p.isBlank())
            .orElse(cloudProject);
    this.clockSkew = config.clockSkew();
    if (clockSkew.isNegative() || clockSkew.compareTo(MAX_CLOCK_SKEW) > 0) {
      throw new ConfigurationException(
          setting(AuthConfig.CLOCK_SKEW)
              + " must lie between 0s and "
              + MAX_CLOCK_SKEW.toSeconds()
              + "s");
    }
    switch (mode) {
      case LOCAL -> requireSecret(config.hs256Secret());
      case FIREBASE -> {
        if (projectId == null || projectId.isBlank()) {
          throw new ConfigurationException(
              "firebase mode needs the Firebase project: set " + setting(AuthConfig.PROJECT_ID));
        }
        requireKeySetUrl(config.jwksUrl());
      }
    }
  }

  AuthMode mode() {
    return mode;
  }

  /** The signature algorithm every accepted token carries. */
  JWSAlgorithm algorithm() {
    return mode.algorithm();
  }

  /** The issuer ({@code iss}) a token must name, in firebase mode. */
  Optional<String> issuer() {
    return mode == AuthMode.FIREBASE
        ? Optional.of(FIREBASE_ISSUER_PREFIX + projectId)
        : Optional.empty();
  }

  /** The audience ({@code aud}) a token must name, and nothing else, in firebase mode. */
  Optional<String> audience() {
    return mode == AuthMode.FIREBASE ? Optional.of(projectId) : Optional.empty();
  }

  Duration clockSkew() {
    return clockSkew;
  }

  private static void requireSecret(String secret) {
    if (secret == null || secret.getBytes(StandardCharsets.UTF_8).length < MIN_SECRET_BYTES) {
      throw new ConfigurationException(
          "local mode has no signature configuration: set "
              + setting(AuthConfig.HS256_SECRET)
              + " to a secret of at least "
              + MIN_SECRET_BYTES
              + " bytes");
    }
  }

  /**
   * The key set must come over HTTPS: whoever can change it in transit can sign any token. Plain
   * HTTP is allowed only from this machine (a test serving its own keys).
   */
  private static void requireKeySetUrl(String url) {
    String problem =
        "firebase mode has no signature configuration: "
            + setting(AuthConfig.JWKS_URL)
            + " must be an https URL of a JSON Web Key Set (http only on localhost), not '"
            + url
            + "'";
    URI uri;
    try {
      uri = url == null || url.isBlank() ? null : URI.create(url);
    } catch (IllegalArgumentException e) {
      throw new ConfigurationException(problem);
    }
    if (uri == null || !uri.isAbsolute() || uri.getHost() == null) {
      throw new ConfigurationException(problem);
    }
    boolean secure = "https".equalsIgnoreCase(uri.getScheme());
    boolean local = "http".equalsIgnoreCase(uri.getScheme()) && isLoopback(uri.getHost());
    if (!secure && !local) {
      throw new ConfigurationException(problem);
    }
  }

  private static boolean isLoopback(String host) {
    if ("localhost".equalsIgnoreCase(host)) {
      return true;
    }
    try {
      // Only literal addresses: a name is not resolved here.
      return host.matches("[0-9.]+|\\[[0-9a-fA-F:.]+\\]")
          && InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
