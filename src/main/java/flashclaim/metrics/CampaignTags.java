package flashclaim.metrics;

import flashclaim.campaign.CampaignId;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * The {@code campaign} tag of a meter, bounded: the first {@code limit} campaigns an instance sees
 * keep their id, every later one is {@value #OTHER}. Only campaigns known to exist take one of the
 * {@code limit} places; any other id (anyone can send one, and the store may fail before telling)
 * is {@value #UNKNOWN}.
 */
final class CampaignTags {
  static final String OTHER = "other";
  static final String UNKNOWN = "unknown";

  private final int limit;
  private final Predicate<CampaignId> exists;
  private final Set<String> admitted = ConcurrentHashMap.newKeySet();

  /**
   * @param exists whether a campaign is known to exist; asked on every claim, so it must not read
   *     the store
   */
  CampaignTags(int limit, Predicate<CampaignId> exists) {
    this.limit = limit;
    this.exists = exists;
  }

  String of(CampaignId campaign) {
    String id = campaign.value();
    if (admitted.contains(id)) {
      return id;
    }
    if (!exists.test(campaign)) {
      return UNKNOWN;
    }
    // Two threads may both pass the size check and go one over the limit; that bound is enough.
    if (admitted.size() < limit && admitted.add(id)) {
      return id;
    }
    return admitted.contains(id) ? id : OTHER;
  }
}
