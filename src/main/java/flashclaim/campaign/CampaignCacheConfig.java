package flashclaim.campaign;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * The per-instance cache of campaigns that the claim path reads through ({@code
 * flashclaim.claim.campaign-cache-*}).
 *
 * @param campaignCacheTtl how long an instance reuses a campaign it read (campaigns never change)
 * @param campaignCacheSize campaigns one instance keeps; past it, the least used are dropped, so
 *     memory stays bounded whatever ids arrive (only existing campaigns are kept)
 */
@ConfigurationProperties("flashclaim.claim")
public record CampaignCacheConfig(
    @Bindable(defaultValue = "5s") Duration campaignCacheTtl,
    @Bindable(defaultValue = "10000") int campaignCacheSize) {

  public CampaignCacheConfig {
    if (campaignCacheTtl.isNegative()) {
      throw new IllegalArgumentException("flashclaim.claim.campaign-cache-ttl must not be negative");
    }
    if (campaignCacheSize < 1) {
      throw new IllegalArgumentException("flashclaim.claim.campaign-cache-size must be at least 1");
    }
  }
}
