package flashclaim.auth;

import com.nimbusds.jose.JWSAlgorithm;
import io.micronaut.context.exceptions.ConfigurationException;
import java.util.Arrays;
import java.util.stream.Collectors;

/** Who issues the bearer tokens ({@code flashclaim.auth.mode}), and the one algorithm accepted. */
public enum AuthMode {
  /** HS256 tokens signed with the shared secret {@code flashclaim.auth.hs256-secret}. */
  LOCAL("local", JWSAlgorithm.HS256),
  /** Firebase Auth ID tokens, RS256 signed with Google's published keys. */
  FIREBASE("firebase", JWSAlgorithm.RS256);

  private final String value;
  private final JWSAlgorithm algorithm;

  AuthMode(String value, JWSAlgorithm algorithm) {
    this.value = value;
    this.algorithm = algorithm;
  }

  /** The mode's name in the configuration. */
  public String value() {
    return value;
  }

  /** The only signature algorithm a token of this mode may carry. */
  public JWSAlgorithm algorithm() {
    return algorithm;
  }

  /**
   * The mode named {@code configured}.
   *
   * @throws ConfigurationException naming the setting when it is none of the documented values
   */
  public static AuthMode of(String configured) {
    for (AuthMode mode : values()) {
      if (mode.value.equals(configured)) {
        return mode;
      }
    }
    throw new ConfigurationException(
        AuthConfig.setting(AuthConfig.MODE)
            + " must be one of "
            + Arrays.stream(values()).map(AuthMode::value).collect(Collectors.joining(", "))
            + ", not '"
            + configured
            + "'");
  }
}
