package flashclaim.redemption;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * How shop systems' webhooks are authenticated ({@code flashclaim.webhooks.*}).
 *
 * @param secret the secret shared with the shop systems, at least 32 bytes (env {@code
 *     FLASHCLAIM_WEBHOOKS_SECRET}); they sign every body with it (see {@link WebhookSignature})
 * @param tolerance how far the signature's timestamp may be from this instance's clock, either way;
 *     older deliveries are refused, which bounds how long a captured request can be replayed
 */
@ConfigurationProperties("flashclaim.webhooks")
public record WebhookConfig(
    @Bindable(defaultValue = DEVELOPMENT_SECRET) String secret,
    @Bindable(defaultValue = "5m") Duration tolerance) {

  /** The documented development secret. Never use it where real shops deliver. */
  public static final String DEVELOPMENT_SECRET =
      "flashclaim-webhook-development-secret-change-me-0123456789";
}
