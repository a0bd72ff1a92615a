package flashclaim.audit;

import flashclaim.campaign.CampaignId;
import java.util.function.Consumer;

/**
 * Port: a full read of a campaign's coupons and claim records, for the audit. Reads page by page; it
 * is not a snapshot, so an audit taken while claims run may report a claim in flight. Both methods
 * may throw {@link flashclaim.StoreException}.
 */
public interface AuditStore {

  void forEachCoupon(CampaignId campaign, Consumer<CouponRow> consumer);

  void forEachClaim(CampaignId campaign, Consumer<ClaimRow> consumer);

  /**
   * A coupon as stored. {@code assignedTo} is the holder's user key and {@code claimId} the id of
   * the claim record that names it; both are null while the coupon is unassigned.
   */
  record CouponRow(String couponId, String code, boolean assigned, String assignedTo, String claimId) {}

  /** A claim record as stored. */
  record ClaimRow(String claimId, String userKey, int slot, String couponId, String code) {}
}
