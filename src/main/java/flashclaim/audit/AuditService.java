package flashclaim.audit;

import flashclaim.campaign.Campaign;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CampaignStore;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** Checks a whole campaign against G1, G2 and G5 from a full read of the store. */
@Singleton
public class AuditService {
  public static final int MAX_PROBLEMS = 100;

  private final CampaignStore campaigns;
  private final AuditStore store;

  public AuditService(CampaignStore campaigns, AuditStore store) {
    this.campaigns = campaigns;
    this.store = store;
  }

  /** The audit of the campaign; empty when it does not exist. */
  public Optional<AuditReport> audit(CampaignId id) {
    return campaigns.find(id).map(this::audit);
  }

  private AuditReport audit(Campaign campaign) {
    Map<String, AuditStore.CouponRow> coupons = new HashMap<>();
    store.forEachCoupon(campaign.id(), row -> coupons.put(row.couponId(), row));
    List<AuditStore.ClaimRow> claims = new ArrayList<>();
    store.forEachClaim(campaign.id(), claims::add);

    Problems problems = new Problems();
    Map<String, String> claimByCoupon = new HashMap<>();
    Map<String, AuditStore.ClaimRow> claimById = new HashMap<>();
    Map<String, Integer> claimsPerUser = new HashMap<>();
    for (AuditStore.ClaimRow claim : claims) {
      claimById.put(claim.claimId(), claim);
      claimsPerUser.merge(claim.userKey(), 1, Integer::sum);
      if (claim.slot() < 0 || claim.slot() >= campaign.perUserLimit()) {
        problems.add("G2: claim " + claim.claimId() + " uses slot " + claim.slot());
      }
      String other = claimByCoupon.put(claim.couponId(), claim.claimId());
      if (other != null) {
        problems.add(
            "G1: coupon " + claim.couponId() + " named by claims " + other + " and " + claim.claimId());
      }
      AuditStore.CouponRow coupon = coupons.get(claim.couponId());
      if (coupon == null) {
        problems.add("G5: claim " + claim.claimId() + " names missing coupon " + claim.couponId());
      } else if (!coupon.assigned()
          || !Objects.equals(coupon.assignedTo(), claim.userKey())
          || !Objects.equals(coupon.claimId(), claim.claimId())
          || !Objects.equals(coupon.code(), claim.code())) {
        problems.add(
            "G5: claim " + claim.claimId() + " and coupon " + coupon.couponId() + " disagree");
      }
    }
    claimsPerUser.forEach(
        (user, count) -> {
          if (count > campaign.perUserLimit()) {
            problems.add("G2: user " + user + " holds " + count + " claims");
          }
        });

    long assigned = 0;
    Map<String, Integer> couponsPerUser = new HashMap<>();
    for (AuditStore.CouponRow coupon : coupons.values()) {
      if (!coupon.assigned()) {
        if (coupon.assignedTo() != null || coupon.claimId() != null) {
          problems.add("G5: unassigned coupon " + coupon.couponId() + " names a holder");
        }
        continue;
      }
      assigned++;
      couponsPerUser.merge(coupon.assignedTo(), 1, Integer::sum);
      AuditStore.ClaimRow claim = coupon.claimId() == null ? null : claimById.get(coupon.claimId());
      if (claim == null || !coupon.couponId().equals(claim.couponId())) {
        problems.add("G5: assigned coupon " + coupon.couponId() + " has no matching claim record");
      }
    }
    couponsPerUser.forEach(
        (user, count) -> {
          if (count > campaign.perUserLimit()) {
            problems.add("G2: user " + user + " holds " + count + " coupons");
          }
        });
    return new AuditReport(
        problems.count == 0, coupons.size(), assigned, claims.size(), problems.count, problems.listed);
  }

  private static final class Problems {
    final List<String> listed = new ArrayList<>();
    long count;

    void add(String problem) {
      count++;
      if (listed.size() < MAX_PROBLEMS) {
        listed.add(problem);
      }
    }
  }
}
