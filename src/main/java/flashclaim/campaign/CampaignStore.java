package flashclaim.campaign;

import flashclaim.Deadline;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;

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

  /**
   * Up to {@code limit} campaigns, newest first (by {@code createdAt}, then by id, both
   * descending), starting after {@code after} when given: one ordered, limited query, never a read
   * of coupons.
   */
  CampaignPage list(int limit, Optional<CampaignPage.After> after);

  /**
   * Changes the campaign atomically: reads it as the store holds it, asks {@code change} for the
   * next version, and writes that version together with its change record (both or neither). When
   * another write moved the campaign meanwhile, it reads again and asks {@code change} again, so
   * {@code change} judges every version it may replace; what {@code change} throws leaves the store
   * unchanged and reaches the caller.
   *
   * @param change the campaign after the change, or empty to write nothing
   * @return the campaign as it is after the call (as read, when nothing was written); empty when
   *     no campaign has this id
   */
  Optional<Campaign> update(CampaignId id, Function<Campaign, Optional<Update>> change);

  /**
   * Up to {@code limit} change records of the campaign, newest first (by version), with versions
   * below {@code below} when given.
   */
  ChangePage changes(CampaignId id, int limit, OptionalLong below);

  /** What {@link #update} writes: the next version of a campaign and the record of the change. */
  record Update(Campaign campaign, CampaignChange change) {
    public Update {
      if (!campaign.id().equals(change.campaignId()) || campaign.version() != change.version()) {
        throw new IllegalArgumentException("the change record is not of this version");
      }
    }
  }
}
