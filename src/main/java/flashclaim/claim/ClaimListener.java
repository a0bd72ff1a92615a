package flashclaim.claim;

import flashclaim.campaign.CampaignId;
import java.time.Duration;

/**
 * Observes the result of every claim, for metrics or a live view. Every bean of this type is told,
 * on the thread that ran the claim, so an implementation must be quick and must not throw.
 */
public interface ClaimListener {

  /** A claim ended with {@code outcome}, {@code took} after it was admitted. */
  void claimed(CampaignId campaign, ClaimOutcome outcome, Duration took);

  /** A claim failed with a store fault (answered 503 {@code store-unavailable}). */
  default void failed(CampaignId campaign, RuntimeException error, Duration took) {}
}
