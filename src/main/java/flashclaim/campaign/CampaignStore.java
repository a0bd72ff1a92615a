package flashclaim.campaign;

import flashclaim.Deadline;
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
  default Optional<Campaign> find(CampaignId id) {
    return find(id, Deadline.none());
  }

  /**
   * The campaign with this id, if there is one, read within {@code deadline}: the read does not
   * start once it has passed and waits at most what is left of it.
   */
  Optional<Campaign> find(CampaignId id, Deadline deadline);

  /**
   * The campaign's additions counter, read by id: empty when there is no such campaign. The
   * contract that makes the sold-out fast path exact (G3): if a read at moment {@code t} and a
   * later read at {@code t'} both return the same {@code count} and neither says {@code
   * inProgress}, then no coupon became visible to a claim's pool query between {@code t} and
   * {@code t'}. A store meets it by moving the count before (or atomically with) the coupons
   * becoming visible, and by reporting as in progress every addition that may still make coupons
   * visible after the count moved.
   */
  Optional<PoolAdditions> couponsAdded(CampaignId id);
}
