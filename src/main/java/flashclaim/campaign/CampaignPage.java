package flashclaim.campaign;

import java.util.List;
import java.util.Optional;

/**
 * One page of campaigns, newest first (by {@code createdAt}, then id, both descending), and the
 * position after its last campaign when more may follow.
 */
public record CampaignPage(List<Campaign> campaigns, Optional<CampaignPage.After> next) {

  public CampaignPage {
    campaigns = List.copyOf(campaigns);
  }

  /** A position in the list: after the campaign created at {@code createdAt} with this id. */
  public record After(java.time.Instant createdAt, CampaignId id) {}

  /**
   * The page of {@code limit} campaigns out of {@code fetched}, which holds up to {@code limit + 1}
   * (the extra one only shows that more follow).
   */
  public static CampaignPage of(List<Campaign> fetched, int limit) {
    if (fetched.size() <= limit) {
      return new CampaignPage(fetched, Optional.empty());
    }
    List<Campaign> page = fetched.subList(0, limit);
    Campaign last = page.get(limit - 1);
    return new CampaignPage(page, Optional.of(new After(last.createdAt(), last.id())));
  }
}
