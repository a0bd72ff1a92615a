package flashclaim.campaign;

import java.util.List;
import java.util.OptionalLong;

/**
 * One page of a campaign's recorded changes, newest first (by version, descending), and the version
 * below which the next page starts when more may follow.
 */
public record ChangePage(List<CampaignChange> changes, OptionalLong nextBelow) {

  public ChangePage {
    changes = List.copyOf(changes);
  }

  /** The page of {@code limit} changes out of {@code fetched}, which holds up to {@code limit + 1}. */
  public static ChangePage of(List<CampaignChange> fetched, int limit) {
    if (fetched.size() <= limit) {
      return new ChangePage(fetched, OptionalLong.empty());
    }
    List<CampaignChange> page = fetched.subList(0, limit);
    return new ChangePage(page, OptionalLong.of(page.get(limit - 1).version()));
  }
}
