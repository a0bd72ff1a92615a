package flashclaim.campaign;

import java.util.Optional;

/**
 * Port: where campaigns live. Every method may throw {@link flashclaim.StoreException} when the store
 * fails or does not answer within its configured timeout; none retries on its own beyond what the
 * store client does for idempotent reads.
 */
public interface CampaignStore {

  /**
   * Creates the campaign if no campaign has its id: create-if-absent, atomic in the store.
   *
   * @return false when the id is already taken (the existing campaign is left unchanged)
   */
  boolean create(Campaign campaign);

  /** The campaign with this id, if there is one. */
  Optional<Campaign> find(CampaignId id);
}
