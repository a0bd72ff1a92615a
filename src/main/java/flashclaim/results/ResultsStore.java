package flashclaim.results;

import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CouponCode;
import flashclaim.claim.UserId;
import java.util.List;
import java.util.Optional;

/**
 * Port: what operators read of a campaign's results, for finance and support. Reads only; a
 * campaign that does not exist reads as one without coupons. Every method may throw {@link
 * flashclaim.StoreException} when the store fails or does not answer within its timeout.
 */
public interface ResultsStore {

  /**
   * Opens the export of every claim of the campaign, from one moment of the store: the snapshot
   * read of the audit ({@code flashclaim.audit.*} sets its pages, fetches and timeouts).
   */
  ClaimExport export(CampaignId campaign);

  /**
   * The coupons {@code user} holds in the campaign, claimed or redeemed, in the order of {@link
   * ClaimExport}, read in one consistent read; empty when none.
   */
  List<CouponRecord> claimsOf(CampaignId campaign, UserId user);

  /** The coupon with this code in the campaign, in any state; empty when the campaign has none. */
  Optional<CouponRecord> coupon(CampaignId campaign, CouponCode code);
}
