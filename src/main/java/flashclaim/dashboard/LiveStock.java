package flashclaim.dashboard;

import com.github.benmanes.caffeine.cache.Cache;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CouponStore;
import flashclaim.campaign.Stock;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;

/**
 * The store-wide stock of campaigns for the dashboard, read through a short per-instance cache:
 * a stock costs aggregation queries, so however many dashboards poll an instance, it reads the
 * stock of a campaign at most about once per {@code flashclaim.dashboard.stock-cache-ttl}. While one request
 * refreshes an expired stock, the others answer the previous one at once instead of reading too
 * (or waiting). From the stocks read over the rate window it derives the store-wide rate at which
 * coupons are assigned, across all instances. Bounded like {@link LiveClaimCounters}.
 */
@Singleton
public class LiveStock {
  /** Stock readings kept per campaign for the rate, at most. */
  private static final int MAX_SAMPLES = 64;

  private final CouponStore coupons;
  private final Clock clock;
  private final Duration ttl;
  private final Duration window;
  private final Cache<CampaignId, Entry> campaigns;

  public LiveStock(CouponStore coupons, DashboardConfig config, Clock clock) {
    this.coupons = coupons;
    this.clock = clock;
    this.ttl = config.stockCacheTtl();
    this.window = config.rateWindow();
    this.campaigns = LiveClaimCounters.campaignCache(config);
  }

  /**
   * The stock of an existing campaign, at most about the cache TTL old, with the store-wide rate.
   *
   * @throws flashclaim.StoreException when the store fails (an outage is shown, not hidden behind
   *     an old reading)
   */
  public Reading read(CampaignId campaign) {
    Entry entry = campaigns.get(campaign, id -> new Entry());
    Instant now = clock.instant();
    Sample latest = entry.latest;
    if (latest != null && now.isBefore(latest.readAt().plus(ttl))) {
      return entry.reading();
    }
    synchronized (entry) {
      if (entry.refreshing && entry.latest != null) {
        return entry.reading(); // another request is reading it: the last one will do
      }
      entry.refreshing = true;
    }
    try {
      Stock stock = coupons.stock(campaign);
      entry.add(new Sample(stock, clock.instant()), window);
      return entry.reading();
    } finally {
      synchronized (entry) {
        entry.refreshing = false;
      }
    }
  }

  /**
   * A stock reading.
   *
   * @param stock total, assigned and remaining coupons, store-wide
   * @param readAt when the store was read
   * @param assignedPerSecond coupons assigned per second store-wide, from the readings of the rate
   *     window; null until two readings at least a second apart exist
   */
  public record Reading(Stock stock, Instant readAt, Double assignedPerSecond) {}

  record Sample(Stock stock, Instant readAt) {}

  /** The readings of one campaign: the latest, and those the rate is derived from. */
  static final class Entry {
    /** Readings for the rate, at least a window's 1/MAX_SAMPLES apart; guarded by this. */
    private final ArrayDeque<Sample> samples = new ArrayDeque<>();
    private volatile Sample latest;
    private boolean refreshing; // guarded by this

    synchronized void add(Sample sample, Duration window) {
      if (latest != null && sample.readAt().isBefore(latest.readAt())) {
        return; // a slower read that began earlier: keep the newer one
      }
      latest = sample;
      // However often the stock is read (a short TTL, many pollers), the kept readings span the
      // window: one that follows the last kept too closely only becomes the latest.
      Sample lastKept = samples.peekLast();
      if (lastKept != null
          && sample.readAt().isBefore(lastKept.readAt().plus(window.dividedBy(MAX_SAMPLES)))) {
        return;
      }
      samples.addLast(sample);
      Instant oldest = sample.readAt().minus(window);
      while (samples.size() > MAX_SAMPLES
          || (samples.size() > 1 && samples.peekFirst().readAt().isBefore(oldest))) {
        samples.removeFirst();
      }
    }

    synchronized Reading reading() {
      Sample last = latest;
      Sample first = samples.peekFirst();
      Duration span = Duration.between(first.readAt(), last.readAt());
      Double rate =
          span.toMillis() < 1000
              ? null
              : Math.max(0, last.stock().assigned() - first.stock().assigned())
                  * 1000.0
                  / span.toMillis();
      return new Reading(last.stock(), last.readAt(), rate);
    }
  }
}
