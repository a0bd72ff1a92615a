package flashclaim.status;

import com.github.benmanes.caffeine.cache.AsyncLoadingCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import flashclaim.campaign.Campaign;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CampaignService;
import flashclaim.campaign.CouponStore;
import flashclaim.campaign.Stock;
import io.micronaut.context.annotation.Context;
import jakarta.inject.Named;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.LongAdder;

/**
 * The status of campaigns for the apps that poll it, read through a per-instance cache (Caffeine):
 * each instance reads a campaign's stock at most once per {@code flashclaim.status.stock-max-age},
 * with one read in flight at a time, however many phones ask.
 *
 * <p>A reading older than {@code stock-max-age} is read again in the background by the first
 * request that finds it so, and that request and the ones that arrive meanwhile are answered at
 * once with the reading they found (its {@code stockReadAt} says how old it is): a poll never
 * waits for the store unless the instance holds no reading of the campaign, or only one older than
 * twice {@code stock-max-age} (a campaign nobody asked about for that long, or a store that has
 * failed every read since). Under steady polling a {@code remaining} is at most {@code
 * stock-max-age} plus one read old. Answers complete on the caller's thread; reads run on the
 * store executor.
 *
 * <p>The cache holds existing campaigns only, at most {@code flashclaim.status.max-campaigns}: an
 * unknown id costs one lookup of the campaign (shared by the requests for the same id meanwhile),
 * never a count of coupons, and leaves nothing behind.
 *
 * <p>Created at startup, so that a bad {@code flashclaim.status} configuration stops the service
 * from starting.
 */
@Context
public class CampaignStatusService {
  private final CampaignService campaigns;
  private final CouponStore coupons;
  private final Clock clock;
  private final AsyncLoadingCache<CampaignId, Reading> readings;
  private final LongAdder stockReads = new LongAdder();

  public CampaignStatusService(
      CampaignService campaigns,
      CouponStore coupons,
      StatusConfig config,
      Clock clock,
      @Named("store") ExecutorService storeExecutor) {
    this.campaigns = campaigns;
    this.coupons = coupons;
    this.clock = clock;
    this.readings =
        Caffeine.newBuilder()
            .maximumSize(config.maxCampaigns())
            .refreshAfterWrite(config.stockMaxAge())
            .expireAfterWrite(config.stockMaxAge().multipliedBy(2))
            .executor(storeExecutor)
            .buildAsync(this::read);
  }

  /**
   * The campaign's status now; empty when no campaign has this id. Completes exceptionally with a
   * {@link flashclaim.StoreException} (possibly wrapped in a {@link
   * java.util.concurrent.CompletionException}) when the store fails; the next request reads again.
   */
  public CompletableFuture<Optional<CampaignStatus>> status(CampaignId id) {
    return readings
        .get(id)
        .thenApply(
            reading ->
                Optional.ofNullable(reading)
                    .map(r -> CampaignStatus.of(r.campaign(), r.stock(), r.at(), clock.instant())));
  }

  /** Stock reads this instance made for statuses so far. */
  public long stockReadCount() {
    return stockReads.sum();
  }

  /** Campaigns whose status this instance holds now. */
  public long cachedCampaigns() {
    readings.synchronous().cleanUp(); // pending evictions first: the size is then exact
    return readings.synchronous().estimatedSize();
  }

  /** Reads a campaign and its stock; null (nothing cached) when there is no such campaign. */
  private Reading read(CampaignId id) {
    Optional<Campaign> campaign = campaigns.find(id);
    if (campaign.isEmpty()) {
      return null;
    }
    stockReads.increment();
    Stock stock = coupons.stock(id);
    return new Reading(campaign.get(), stock, clock.instant());
  }

  private record Reading(Campaign campaign, Stock stock, Instant at) {}
}
