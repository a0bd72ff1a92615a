package flashclaim.audit;

import flashclaim.campaign.CampaignId;
import java.time.Instant;
import java.util.Iterator;
import java.util.function.Function;

/**
 * Port: a streamed, consistent read of a campaign's coupons and claim records, for the audit. Both
 * sequences come from one moment of the store (a snapshot), so a claim that commits while the audit
 * reads is either wholly in the view or wholly out of it, and memory does not grow with the
 * campaign: rows arrive page by page ({@link AuditConfig}) and are not kept. May throw {@link
 * flashclaim.StoreException}.
 */
public interface AuditStore {

  /**
   * Opens the view of the campaign, hands it to {@code reader} and closes it when {@code reader}
   * returns or throws. The view is valid only inside {@code reader}.
   */
  <T> T read(CampaignId campaign, Function<View, T> reader);

  /** A consistent view of one campaign. Ids are ASCII and sorted by {@link String#compareTo}. */
  interface View {

    /** The moment of the store the view shows. */
    Instant readAt();

    /** The campaign's coupons, sorted by coupon id. */
    Iterator<CouponRow> coupons();

    /** The campaign's claim records, sorted by the id of the coupon each names. */
    Iterator<ClaimRow> claimsByCoupon();

    /** Pages read so far: queries (Firestore) or cursor fetches (PostgreSQL), each of at most a page. */
    long pages();
  }

  /**
   * A coupon as stored. {@code assignedTo} is the holder's user key and {@code claimId} the id of
   * the claim record that names it; both are null while the coupon is unassigned. {@code offered}
   * is whether a claim can find the coupon where the store's claims look for unassigned ones (on
   * Firestore the fields its probe queries and orders by, on PostgreSQL a row in {@code
   * coupon_pool}); it matters only while the coupon is unassigned.
   */
  record CouponRow(
      String couponId,
      String code,
      boolean assigned,
      String assignedTo,
      String claimId,
      boolean offered) {}

  /** A claim record as stored. */
  record ClaimRow(String claimId, String userKey, int slot, String couponId, String code) {}
}
