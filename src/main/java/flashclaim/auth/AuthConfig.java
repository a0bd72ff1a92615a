package flashclaim.auth;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;

/**
 * How tokens are checked ({@code flashclaim.auth.*}).
 *
 * @param mode {@code local}: HS256 tokens signed with {@code hs256Secret} (development, tests, load
 *     runs); {@code firebase}: Firebase Auth ID tokens, checked against Google's keys (set by the
 *     {@code firebase} environment)
 * @param hs256Secret the shared secret of local tokens, at least 32 bytes (env {@code
 *     FLASHCLAIM_AUTH_HS256_SECRET})
 */
@ConfigurationProperties("flashclaim.auth")
public record AuthConfig(
    @Bindable(defaultValue = "local") String mode,
    @Bindable(defaultValue = DEVELOPMENT_SECRET) String hs256Secret) {

  /** The documented development secret. Never use it where real users are. */
  public static final String DEVELOPMENT_SECRET = "flashclaim-development-secret-change-me-0123456789";
}
