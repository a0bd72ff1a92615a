package flashclaim.metrics;

import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CampaignService;
import flashclaim.claim.ClaimListener;
import flashclaim.claim.ClaimOutcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Counts every claim by outcome and campaign ({@value #CLAIMS}) and records its latency from
 * admission: {@value #LATENCY} is a histogram (buckets, for quantiles over all instances with
 * {@code histogram_quantile}), {@value #PERCENTILES} this instance's p50, p95 and p99 (a summary;
 * Prometheus has no meter that is both).
 */
@Singleton
@Requires(beans = MeterRegistry.class)
final class MicrometerClaimListener implements ClaimListener {
  static final String CLAIMS = "flashclaim.claims";
  static final String LATENCY = "flashclaim.claim.latency";
  static final String PERCENTILES = "flashclaim.claim.latency.percentiles";

  /** Buckets of the latency histogram, around the claim deadline (2 s by default). */
  private static final Duration[] BUCKETS = {
    Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50),
    Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1),
    Duration.ofSeconds(2), Duration.ofSeconds(5), Duration.ofSeconds(10)
  };

  private final MeterRegistry registry;
  private final CampaignTags campaigns;
  private final Map<Key, Meters> meters = new ConcurrentHashMap<>();

  MicrometerClaimListener(
      MeterRegistry registry, MetricsConfig config, CampaignService campaignService) {
    this.registry = registry;
    this.campaigns = new CampaignTags(config.maxCampaignTags(), campaignService::isKnown);
  }

  @Override
  public void claimed(CampaignId campaign, ClaimOutcome outcome, Duration took) {
    record(campaigns.of(campaign), outcomeName(outcome), took);
  }

  @Override
  public void failed(CampaignId campaign, RuntimeException error, Duration took) {
    record(campaigns.of(campaign), "error", took);
  }

  private void record(String campaign, String outcome, Duration took) {
    Meters found = meters.computeIfAbsent(new Key(campaign, outcome), this::register);
    found.claims().increment();
    found.latency().record(took);
    found.percentiles().record(took);
  }

  /**
   * The meters of one campaign tag and outcome, registered once: a lookup by builder costs more
   * than the recording. {@link CampaignTags} bounds the campaign tags, so the map is bounded too.
   */
  private Meters register(Key key) {
    String campaign = key.campaign();
    String outcome = key.outcome();
    Counter claims =
        Counter.builder(CLAIMS)
        .description("claims answered, by outcome")
        .tag("campaign", campaign)
        .tag("outcome", outcome)
        .register(registry);
    Timer latency =
        Timer.builder(LATENCY)
        .description("time from admission to the claim's answer")
        .tag("campaign", campaign)
        .tag("outcome", outcome)
        .serviceLevelObjectives(BUCKETS)
        .register(registry);
    Timer percentiles =
        Timer.builder(PERCENTILES)
        .description("time from admission to the claim's answer, quantiles of this instance")
        .tag("campaign", campaign)
        .tag("outcome", outcome)
        .publishPercentiles(0.5, 0.95, 0.99)
        .register(registry);
    return new Meters(claims, latency, percentiles);
  }

  private record Key(String campaign, String outcome) {}

  private record Meters(Counter claims, Timer latency, Timer percentiles) {}

  static String outcomeName(ClaimOutcome outcome) {
    return outcome.kind().name().toLowerCase(Locale.ROOT);
  }
}
