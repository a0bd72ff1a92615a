package flashclaim.campaign;

import java.util.List;

/**
 * Port: the coupon pool of a campaign. Every method may throw {@link flashclaim.StoreException}.
 */
public interface CouponStore {

  /**
   * Adds codes to the campaign's pool, idempotently by code: a code that is already present (in the
   * store, or earlier in the same list) is skipped and counted as such. Safe to repeat after a
   * failure or a timeout: a retry adds what the first call did not.
   */
  AddResult add(CampaignId campaign, List<CouponCode> codes);

  /** Total and assigned coupons of the campaign, counted by the store at one moment. */
  Stock stock(CampaignId campaign);

  /** Outcome of {@link #add}. */
  record AddResult(long added, long skipped) {}
}
