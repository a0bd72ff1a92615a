package flashclaim.dashboard;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CampaignService;
import flashclaim.claim.ClaimListener;
import flashclaim.claim.ClaimOutcome;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;

/**
 * This instance's claims per campaign, as {@link flashclaim.claim.ClaimService} reports them: how
 * many ended in each {@link Outcome} and how many per second, over a sliding window. Figures of one
 * instance only; other instances count their own. Memory is bounded: at most {@code
 * flashclaim.dashboard.max-campaigns} campaigns (past it, Caffeine forgets the least used), each a
 * fixed set of counters and a fixed ring of per-second buckets. Only claims of campaigns known to
 * exist ({@link CampaignService#isKnown}) are counted: made-up ids take no room, whatever their
 * claims came to (unknown, busy before the lookup, or a store fault).
 */
@Singleton
public class LiveClaimCounters implements ClaimListener {
  private final Clock clock;
  private final int windowSeconds;
  private final Predicate<CampaignId> exists;
  private final Cache<CampaignId, Counters> campaigns;

  @Inject
  public LiveClaimCounters(DashboardConfig config, Clock clock, CampaignService campaignService) {
    this(config, clock, campaignService::isKnown);
  }

  /**
   * @param exists whether a campaign is known to exist; asked on every claim, so it must not read
   *     the store
   */
  LiveClaimCounters(DashboardConfig config, Clock clock, Predicate<CampaignId> exists) {
    this.clock = clock;
    this.exists = exists;
    this.windowSeconds = (int) config.rateWindow().toSeconds();
    this.campaigns = campaignCache(config);
  }

  @Override
  public void claimed(CampaignId campaign, ClaimOutcome outcome, Duration took) {
    Outcome kind = Outcome.of(outcome);
    if (kind != null) {
      record(campaign, kind);
    }
  }

  @Override
  public void failed(CampaignId campaign, RuntimeException error, Duration took) {
    record(campaign, Outcome.FAILED);
  }

  private void record(CampaignId campaign, Outcome kind) {
    if (!exists.test(campaign)) {
      return;
    }
    long now = clock.millis();
    campaigns.get(campaign, id -> new Counters(windowSeconds, now)).record(kind, now);
  }

  /** This instance's figures of the campaign now; all zero when it has seen no claim of it. */
  public InstanceFigures figures(CampaignId campaign) {
    Counters counters = campaigns.getIfPresent(campaign);
    long now = clock.millis();
    if (counters == null) {
      Map<Outcome, Long> zeros = new EnumMap<>(Outcome.class);
      for (Outcome kind : Outcome.values()) {
        zeros.put(kind, 0L);
      }
      return new InstanceFigures(zeros, 0, 0, null, null);
    }
    return counters.figures(now);
  }

  /** Campaigns with claims on this instance, the most recent first, at most {@code limit}. */
  public List<Active> active(int limit) {
    return campaigns.asMap().entrySet().stream()
        .map(e -> new Active(e.getKey(), Instant.ofEpochMilli(e.getValue().lastClaimMillis())))
        .sorted(Comparator.comparing(Active::lastClaimAt).reversed())
        .limit(limit)
        .toList();
  }

  /**
   * A map of at most {@code flashclaim.dashboard.max-campaigns} campaigns, the least used dropped
   * first; evictions run on the callers' threads, so the cap holds when a call returns.
   */
  static <V> Cache<CampaignId, V> campaignCache(DashboardConfig config) {
    return Caffeine.newBuilder().maximumSize(config.maxCampaigns()).executor(Runnable::run).build();
  }

  /** A campaign with claims on this instance, and when the last one ended. */
  public record Active(CampaignId campaign, Instant lastClaimAt) {}

  /**
   * One instance's figures of a campaign.
   *
   * @param outcomes claims that ended in each outcome since {@code countingSince}
   * @param claimsPerSecond claims that ended (any outcome) per second over the rate window
   * @param assignedPerSecond claims that got a new coupon per second over the rate window
   * @param countingSince when this instance began counting the campaign (its first claim here);
   *     null when it has seen none
   * @param lastClaimAt when the last claim ended here; null when none did
   */
  public record InstanceFigures(
      Map<Outcome, Long> outcomes,
      double claimsPerSecond,
      double assignedPerSecond,
      Instant countingSince,
      Instant lastClaimAt) {}

  private static final class Counters {
    private final EnumMap<Outcome, LongAdder> counts = new EnumMap<>(Outcome.class);
    private final RateWindow answers;
    private final RateWindow assigned;
    private final long since;
    private volatile long lastClaimMillis;

    Counters(int windowSeconds, long now) {
      for (Outcome kind : Outcome.values()) {
        counts.put(kind, new LongAdder());
      }
      this.answers = new RateWindow(windowSeconds);
      this.assigned = new RateWindow(windowSeconds);
      this.since = now;
      this.lastClaimMillis = now;
    }

    void record(Outcome kind, long now) {
      counts.get(kind).increment();
      long second = Math.floorDiv(now, 1000L);
      answers.record(second);
      if (kind == Outcome.CLAIMED) {
        assigned.record(second);
      }
      lastClaimMillis = now;
    }

    long lastClaimMillis() {
      return lastClaimMillis;
    }

    InstanceFigures figures(long now) {
      Map<Outcome, Long> snapshot = new EnumMap<>(Outcome.class);
      counts.forEach((kind, count) -> snapshot.put(kind, count.sum()));
      long second = Math.floorDiv(now, 1000L);
      return new InstanceFigures(
          snapshot,
          answers.perSecond(second),
          assigned.perSecond(second),
          Instant.ofEpochMilli(since),
          Instant.ofEpochMilli(lastClaimMillis));
    }
  }
}
