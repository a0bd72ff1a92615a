package flashclaim.claim;

import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CouponCode;
import java.time.Instant;

/**
 * A coupon held by a user: the claim record. {@code slot} is the index of the claim among the
 * user's claims in the campaign (0 to perUserLimit - 1); a store keeps at most one record per slot,
 * which is what bounds a user's holdings (G2) even when claims race.
 */
public record Claim(CampaignId campaignId, CouponCode code, int slot, Instant claimedAt) {}
