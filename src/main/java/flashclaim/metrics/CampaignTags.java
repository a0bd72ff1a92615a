package flashclaim.metrics;

import flashclaim.campaign.CampaignId;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code campaign} tag of a meter, bounded: the first {@code limit} campaigns an instance sees
 * keep their id, every later one is {@value #OTHER}. Ids of campaigns that do not exist are never
 * admitted (anyone can send them), they are {@value #UNKNOWN}.
 */
final class CampaignTags {
  static final String OTHER = "other";
  static final String UNKNOWN = "unknown";

  private final int limit;
  private final Set<String> admitted = ConcurrentHashMap.newKeySet();

  CampaignTags(int limit) {
    this.limit = limit;
  }

  String of(CampaignId campaign) {
    String id = campaign.value();
    if (admitted.contains(id)) {
      return id;
    }
    // Two threads may both pass the size check and go one over the limit; that bound is enough.
    if (admitted.size() < limit && admitted.add(id)) {
      return id;
    }
    return admitted.contains(id) ? id : OTHER;
  }
}
