package flashclaim.dashboard;

import flashclaim.campaign.Campaign;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CampaignService;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What the live dashboard shows of a campaign: its store-wide stock (cached for about a second, see
 * {@link LiveStock}) and this instance's claim figures ({@link LiveClaimCounters}).
 */
@Singleton
public class DashboardService {
  private final CampaignService campaigns;
  private final LiveStock stock;
  private final LiveClaimCounters counters;
  private final DashboardConfig config;
  private final Clock clock;

  public DashboardService(
      CampaignService campaigns,
      LiveStock stock,
      LiveClaimCounters counters,
      DashboardConfig config,
      Clock clock) {
    this.campaigns = campaigns;
    this.stock = stock;
    this.counters = counters;
    this.config = config;
    this.clock = clock;
  }

  /**
   * The campaign's live figures; empty when no campaign has this id.
   *
   * @throws flashclaim.StoreException when the store fails
   */
  public Optional<Live> live(CampaignId id) {
    return campaigns
        .find(id)
        .map(
            campaign ->
                new Live(
                    campaign,
                    stock.read(id),
                    counters.figures(id),
                    config,
                    clock.instant()));
  }

  /** Campaigns with claims on this instance, the most recent first. */
  public List<LiveClaimCounters.Active> active(int limit) {
    return counters.active(limit);
  }

  /**
   * The live figures of a campaign at {@code at}.
   *
   * @param stock store-wide: the same on every instance
   * @param instance this instance's claims only
   */
  public record Live(
      Campaign campaign,
      LiveStock.Reading stock,
      LiveClaimCounters.InstanceFigures instance,
      DashboardConfig config,
      Instant at) {}
}
