package flashclaim.campaign;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * The per-instance cache of campaigns that the claim path reads through ({@code
 * flashclaim.claim.campaign-cache-*}).
 *
 * @param campaignCacheTtl how long an instance reuses a campaign it read, counted from before the
 *     read: the bound within which a change of a campaign (a pause, a new window) reaches every
 *     instance. At most 2 s, the bound a pause promises
 * @param campaignCacheSize campaigns one instance keeps; past it, the least used are dropped, so
 *     memory stays bounded whatever ids arrive (only existing campaigns are kept)
 */
@ConfigurationProperties("flashclaim.claim")
public record CampaignCacheConfig(
    @Bindable(defaultValue = "1s") Duration campaignCacheTtl,
    @Bindable(defaultValue = "10000") int campaignCacheSize) {

  /** The longest {@code campaign-cache-ttl}: a pause reaches every instance within 2 s. */
  public static final int MAX_TTL_SECONDS = 2;

  public CampaignCacheConfig {
    if (campaignCacheTtl.isNegative()
        || campaignCacheTtl.compareTo(Duration.ofSeconds(MAX_TTL_SECONDS)) > 0) {
      throw new IllegalArgumentException(
          "flashclaim.claim.campaign-cache-ttl must be from 0 to "
              + MAX_TTL_SECONDS
              + "s: a paused campaign must stop claims on every instance within that");
    }
    if (campaignCacheSize < 1) {
      throw new IllegalArgumentException("flashclaim.claim.campaign-cache-size must be at least 1");
    }
  }
}
