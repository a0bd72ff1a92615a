package flashclaim.audit;

import flashclaim.campaign.Campaign;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CampaignStore;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Checks a whole campaign against G1, G2, G3 and G5 from one consistent, streamed read of the
 * store: the coupons sorted by id and the claim records sorted by the coupon they name are merged,
 * so each coupon is checked with the claim records that name it and nothing else is kept in
 * memory.
 *
 * <ul>
 *   <li>G1: a coupon named by more than one claim record.
 *   <li>G5: a claim record whose coupon is missing, unassigned or held by another claim record (or
 *       disagrees on the code); an assigned coupon that no claim record of its holder names; an
 *       unassigned coupon that names a holder.
 *   <li>G3: an unassigned coupon that no claim can find (not offered where the store's claims look
 *       for unassigned coupons): claims would answer "sold out" while it is left.
 *   <li>G2: a claim record whose slot is outside {@code [0, perUserLimit)}. A user's claim record
 *       ids are one per slot, so valid slots cap the records per user; a coupon beyond the limit
 *       would have no matching record of its own, so it is reported under G5 (naming its holder).
 * </ul>
 */
@Singleton
public class AuditService {
  public static final int MAX_PROBLEMS = 100;
  /** Claim records naming one coupon that a problem lists by id; more are counted. */
  private static final int MAX_NAMED = 10;

  private final CampaignStore campaigns;
  private final AuditStore store;

  public AuditService(CampaignStore campaigns, AuditStore store) {
    this.campaigns = campaigns;
    this.store = store;
  }

  /** The audit of the campaign; empty when it does not exist. */
  public Optional<AuditReport> audit(CampaignId id) {
    return campaigns.find(id).map(campaign -> store.read(id, view -> audit(campaign, view)));
  }

  private static AuditReport audit(Campaign campaign, AuditStore.View view) {
    Peeking<AuditStore.CouponRow> coupons = new Peeking<>(view.coupons());
    Peeking<AuditStore.ClaimRow> claims = new Peeking<>(view.claimsByCoupon());
    Problems problems = new Problems();
    long couponCount = 0;
    long assigned = 0;
    long claimCount = 0;
    List<AuditStore.ClaimRow> naming = new ArrayList<>();
    while (coupons.peek() != null || claims.peek() != null) {
      String key = smaller(coupons.peek(), claims.peek());
      AuditStore.CouponRow coupon = null;
      if (coupons.peek() != null && coupons.peek().couponId().equals(key)) {
        coupon = coupons.next();
        couponCount++;
        if (coupon.assigned()) {
          assigned++;
        }
      }
      naming.clear();
      long namingCount = 0;
      while (claims.peek() != null && key.equals(couponIdOf(claims.peek()))) {
        AuditStore.ClaimRow claim = claims.next();
        namingCount++;
        if (naming.size() < MAX_NAMED) {
          naming.add(claim);
        }
      }
      claimCount += namingCount;
      check(campaign, key, coupon, naming, namingCount, problems);
    }
    return new AuditReport(
        problems.count == 0,
        couponCount,
        assigned,
        claimCount,
        problems.count,
        problems.listed,
        view.readAt(),
        view.pages());
  }

  /** The rules, for one coupon id: the coupon (null when missing) and the claim records naming it. */
  private static void check(
      Campaign campaign,
      String couponId,
      AuditStore.CouponRow coupon,
      List<AuditStore.ClaimRow> naming,
      long namingCount,
      Problems problems) {
    for (AuditStore.ClaimRow claim : naming) {
      if (claim.slot() < 0 || claim.slot() >= campaign.perUserLimit()) {
        problems.add("G2: claim " + claim.claimId() + " uses slot " + claim.slot());
      }
    }
    if (namingCount > 1) {
      problems.add(
          "G1: coupon " + couponId + " named by " + namingCount + " claim records: " + ids(naming));
    }
    if (coupon == null) {
      for (AuditStore.ClaimRow claim : naming) {
        problems.add("G5: claim " + claim.claimId() + " names missing coupon " + couponId);
      }
      return;
    }
    if (!coupon.assigned()) {
      if (coupon.assignedTo() != null || coupon.claimId() != null) {
        problems.add("G5: unassigned coupon " + couponId + " names a holder");
      }
      if (!coupon.offered()) {
        problems.add("G3: unassigned coupon " + couponId + " is not offered to claims");
      }
      for (AuditStore.ClaimRow claim : naming) {
        problems.add("G5: claim " + claim.claimId() + " names unassigned coupon " + couponId);
      }
      return;
    }
    boolean held = false;
    for (AuditStore.ClaimRow claim : naming) {
      if (!Objects.equals(coupon.claimId(), claim.claimId())) {
        problems.add(
            "G5: claim " + claim.claimId() + " names coupon " + couponId + ", held by "
                + coupon.claimId());
      } else if (!Objects.equals(coupon.assignedTo(), claim.userKey())
          || !Objects.equals(coupon.code(), claim.code())) {
        held = true;
        problems.add("G5: claim " + claim.claimId() + " and coupon " + couponId + " disagree");
      } else {
        held = true;
      }
    }
    if (!held && namingCount <= naming.size()) {
      problems.add(
          "G5: assigned coupon " + couponId + " has no matching claim record (holder "
              + coupon.claimId() + "; G2 unchecked for that user)");
    }
  }

  private static String smaller(AuditStore.CouponRow coupon, AuditStore.ClaimRow claim) {
    if (coupon == null) {
      return couponIdOf(claim);
    }
    if (claim == null) {
      return coupon.couponId();
    }
    String a = coupon.couponId();
    String b = couponIdOf(claim);
    return a.compareTo(b) <= 0 ? a : b;
  }

  /** The coupon id a claim record names; a record that names none sorts first. */
  private static String couponIdOf(AuditStore.ClaimRow claim) {
    return claim.couponId() == null ? "" : claim.couponId();
  }

  private static String ids(List<AuditStore.ClaimRow> claims) {
    return String.join(", ", claims.stream().map(AuditStore.ClaimRow::claimId).toList());
  }

  /** An iterator that shows its next element without taking it. */
  private static final class Peeking<T> {
    private final Iterator<T> source;
    private T next;

    Peeking(Iterator<T> source) {
      this.source = source;
      advance();
    }

    T peek() {
      return next;
    }

    T next() {
      T taken = next;
      advance();
      return taken;
    }

    private void advance() {
      next = source.hasNext() ? source.next() : null;
    }
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
