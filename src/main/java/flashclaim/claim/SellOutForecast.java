package flashclaim.claim;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CouponStore;
import io.micronaut.scheduling.TaskExecutors;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.LongAdder;

/**
 * When a campaign's pool is expected to run out, as this instance sees its stock fall: the
 * remaining coupons of the last read over the rate at which they fell between reads (all
 * instances' claims together, since the stock is the store's). Admission asks for it only when it
 * would tell a refused new user a turn beyond their wait: a user whose turn in the appointment
 * book comes after the pool is gone is told to come back then, plus {@code margin}, and learns the
 * outcome then (sold out, or a coupon that someone before them did not come back for), rather
 * than at a turn up to {@code max-retry-after} away. Such users come back as they came: each is
 * told the latest turn plus the time between the first such user's first arrival and theirs
 * (times {@code spacing}), so that they return one after another in the order they clicked, at
 * a rate bound to the rate they clicked at (half of it by default), rather than all at once.
 *
 * <p>Never blocks: an answer comes from the last reads, and a read that is due starts on the I/O
 * pool (at most one per campaign at a time, and at most one per {@code interval}). No forecast
 * before two reads have seen the stock fall, nor from reads older than {@code stale-after}; a pool
 * that grew (coupons added) starts over. Memory: at most {@code max-campaigns} campaigns.
 */
@Singleton
public class SellOutForecast {
  private final CouponStore coupons;
  private final SellOutConfig config;
  private final Clock clock;
  private final Executor reader;
  private final Cache<CampaignId, Watch> watches;
  private final LongAdder reads = new LongAdder();

  public SellOutForecast(
      CouponStore coupons,
      SellOutConfig config,
      Clock clock,
      @Named(TaskExecutors.IO) Executor reader) {
    this.coupons = coupons;
    this.config = config;
    this.clock = clock;
    this.reader = reader;
    this.watches = Caffeine.newBuilder().maximumSize(config.maxCampaigns()).build();
  }

  /**
   * What to tell a refused new user of {@code campaign} whose turn in the book comes after their
   * wait: their turn, or, when it comes after the latest turn worth telling ({@link #latestTurn}),
   * that latest turn plus the time between the first arrival of the first such user and theirs,
   * times {@code spacing} ({@link #spacedBeyond}); while the forecast stands, from no earlier a
   * latest turn than such users were told before. Asks for the forecast only when called.
   */
  public Instant tell(CampaignId campaign, Instant turn, Instant arrival) {
    if (!config.enabled()) {
      return turn;
    }
    Watch watch = watches.get(campaign, Watch::new);
    Optional<Instant> latest = latestTurn(watch);
    if (latest.isEmpty()) {
      watch.noneBeyond(turn);
      return turn;
    }
    return watch.tell(latest.get(), turn, arrival, config.spacing());
  }

  /**
   * {@code latest} plus the time from {@code firstArrival} (of the first user told a turn beyond
   * it) to {@code arrival}, times {@code spacing}: such users come back in the order they first
   * came, at that rate over {@code spacing}, not all at one moment.
   */
  public static Instant spacedBeyond(
      Instant latest, Instant firstArrival, Instant arrival, double spacing) {
    long since = Math.max(0, Duration.between(firstArrival, arrival).toNanos());
    return latest.plusNanos(Math.round(since * spacing));
  }

  /**
   * The latest turn worth telling a refused user of {@code campaign}: the expected sell-out (now, if
   * that has passed) plus the margin, if it can be told now. May start a read of the stock; never
   * waits for one.
   */
  public Optional<Instant> latestTurn(CampaignId campaign) {
    return config.enabled() ? latestTurn(watches.get(campaign, Watch::new)) : Optional.empty();
  }

  /** {@link #latestTurn(CampaignId)} from the campaign's readings; may start a read. */
  private Optional<Instant> latestTurn(Watch watch) {
    Instant now = clock.instant();
    if (watch.readDue(now)) {
      try {
        reader.execute(watch::read);
      } catch (RejectedExecutionException e) {
        watch.readEnded();
      }
    }
    return watch.expected(now).map(at -> (at.isAfter(now) ? at : now).plus(config.margin()));
  }

  /** Stock reads made for forecasts so far. */
  public long reads() {
    return reads.sum();
  }

  /** One campaign's readings; guarded by itself. */
  private final class Watch {
    private final CampaignId campaign;
    private boolean reading;
    private Instant lastStart;
    private Instant lastAt;
    private long lastRemaining;
    /** Coupons taken per second between the last reads; NaN until two reads saw the stock fall. */
    private double perSecond = Double.NaN;
    /** The first arrival of the first user told a turn beyond the forecast; null: none yet. */
    private Instant firstBeyond;
    /** The latest turn those users were told from; null: none yet. */
    private Instant latestTold;
    /** The latest turn told as the book gave it; null: none yet. */
    private Instant asBooked;

    Watch(CampaignId campaign) {
      this.campaign = campaign;
    }

    /**
     * What to tell a user whose turn comes after {@code latest}: see {@link SellOutForecast#tell}.
     * Later users are told no earlier a latest turn than earlier ones, nor one before a turn told
     * as the book gave it: a forecast that moved earlier (the stock fell fast for a moment), or
     * that came after the book had told turns beyond it, would send later clicks back before
     * earlier ones, or all at the moment of the last of them.
     */
    synchronized Instant tell(Instant latest, Instant turn, Instant arrival, double spacing) {
      Instant from = latest;
      if (latestTold != null && latestTold.isAfter(from)) {
        from = latestTold;
      }
      if (asBooked != null && asBooked.isAfter(from)) {
        from = asBooked;
      }
      if (!turn.isAfter(from)) {
        return toldAsBooked(turn);
      }
      if (firstBeyond == null) {
        firstBeyond = arrival;
      }
      latestTold = from;
      return spacedBeyond(from, firstBeyond, arrival, spacing);
    }

    /** No forecast stands: {@code turn} is told as booked, and the next user beyond is the first. */
    synchronized void noneBeyond(Instant turn) {
      forgetBeyond();
      toldAsBooked(turn);
    }

    /** {@code turn}, told as the book gave it, which later users beyond are told no earlier than. */
    private Instant toldAsBooked(Instant turn) {
      if (asBooked == null || turn.isAfter(asBooked)) {
        asBooked = turn;
      }
      return turn;
    }

    /** The next user told a turn beyond a forecast is the first one again. */
    private void forgetBeyond() {
      firstBeyond = null;
      latestTold = null;
    }

    synchronized boolean readDue(Instant now) {
      if (reading || (lastStart != null && now.isBefore(lastStart.plus(config.interval())))) {
        return false;
      }
      reading = true;
      lastStart = now;
      return true;
    }

    synchronized void readEnded() {
      reading = false;
    }

    void read() {
      try {
        long remaining = coupons.stock(campaign).remaining();
        reads.increment();
        saw(Math.max(0, remaining), clock.instant());
      } catch (RuntimeException e) {
        // the store failed: the last readings stand until they are stale
      } finally {
        readEnded();
      }
    }

    synchronized void saw(long remaining, Instant at) {
      if (lastAt != null && remaining > lastRemaining) {
        perSecond = Double.NaN; // coupons were added: the old rate says nothing now
        forgetBeyond();
      } else if (lastAt != null && at.isAfter(lastAt)) {
        double rate = (lastRemaining - remaining) / (Duration.between(lastAt, at).toNanos() / 1e9);
        perSecond = Double.isNaN(perSecond) ? rate : (perSecond + rate) / 2;
      }
      lastAt = at;
      lastRemaining = remaining;
    }

    synchronized Optional<Instant> expected(Instant now) {
      if (lastAt == null
          || now.isAfter(lastAt.plus(config.staleAfter()))
          || !(perSecond > 0)) {
        return Optional.empty();
      }
      return Optional.of(lastAt.plusNanos(Math.round(lastRemaining / perSecond * 1e9)));
    }
  }
}
