package flashclaim.redemption;

import flashclaim.campaign.CampaignId;
import flashclaim.lock.HeldLock;
import flashclaim.lock.LockOutcome;
import flashclaim.lock.LockService;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/**
 * Applies the shop's redemption events, one at a time per coupon across all instances.
 *
 * <ol>
 *   <li>Find the coupon: by id when the event names the campaign, else by a lookup of the code
 *       over all campaigns (404 when no campaign has it, 409 when several do).
 *   <li>Decide on that read: an event that changes nothing (a repeat, a refusal) is answered from
 *       it, without the lock, so a refused delivery writes nothing, not even a lock record. A
 *       consistent read is all such an answer needs: it was true when the read was taken.
 *   <li>For a change, take the per-key lock of the coupon ({@code redemption/{campaignId}/{code}}),
 *       so that concurrent deliveries about one coupon (a shop's retries, a redeemed and a
 *       cancelled racing) are decided one after the other on fresh reads; deliveries about
 *       different coupons run in parallel. Not getting the lock within its wait is {@link
 *       RedemptionOutcome.Busy}.
 *   <li>Under the lock, read the coupon again and decide ({@link RedeemableCoupon#decide}). A
 *       change is written conditionally on the version just read, so even a holder whose lease ran
 *       out (and whose successor already wrote) cannot write over a newer state: its write fails
 *       and it decides again on what is there now.
 * </ol>
 */
@Singleton
public class RedemptionService {
  /** Campaigns a code lookup reads: two are enough to tell "one" from "several". */
  private static final int LOOKUP_LIMIT = 2;
  /**
   * Conditional writes one delivery tries under its lock. A write fails only when someone wrote
   * the coupon while this delivery held the lock, which takes a holder whose lease ran out.
   */
  private static final int MAX_WRITES = 3;

  private final RedemptionStore store;
  private final LockService locks;
  private final Clock clock;

  public RedemptionService(RedemptionStore store, LockService locks, Clock clock) {
    this.store = store;
    this.locks = locks;
    this.clock = clock;
  }

  /** Applies one event. */
  public RedemptionOutcome apply(RedemptionEvent event) {
    CampaignId campaign = event.campaignId();
    if (campaign == null) {
      List<CampaignId> found = store.campaignsWithCode(event.code(), LOOKUP_LIMIT);
      if (found.isEmpty()) {
        return new RedemptionOutcome.UnknownCode();
      }
      if (found.size() > 1) {
        return new RedemptionOutcome.AmbiguousCode(found);
      }
      campaign = found.get(0);
    }
    Optional<RedeemableCoupon> read = store.find(campaign, event.code());
    if (read.isEmpty()) {
      return new RedemptionOutcome.UnknownCode();
    }
    RedeemableCoupon.Transition decided = read.get().decide(event.kind(), event.orderId());
    if (!(decided instanceof RedeemableCoupon.Transition.To)) {
      return unchanged(read.get(), decided);
    }
    CampaignId known = campaign;
    LockOutcome<RedemptionOutcome> locked =
        locks.runWithLock(
            lockKey(known, event), locks.defaults(), held -> applyLocked(known, event, held));
    if (locked instanceof LockOutcome.Ran<RedemptionOutcome> ran) {
      return ran.result();
    }
    return new RedemptionOutcome.Busy();
  }

  /** The lock that serializes the webhooks of one coupon. */
  static String lockKey(CampaignId campaign, RedemptionEvent event) {
    return "redemption/" + campaign.value() + "/" + event.code().value();
  }

  private RedemptionOutcome applyLocked(CampaignId campaign, RedemptionEvent event, HeldLock held) {
    for (int write = 0; write < MAX_WRITES && !held.isLost(); write++) {
      Optional<RedeemableCoupon> read = store.find(campaign, event.code());
      if (read.isEmpty()) {
        return new RedemptionOutcome.UnknownCode();
      }
      RedeemableCoupon coupon = read.get();
      RedeemableCoupon.Transition transition = coupon.decide(event.kind(), event.orderId());
      if (!(transition instanceof RedeemableCoupon.Transition.To to)) {
        return unchanged(coupon, transition);
      }
      Optional<RedeemableCoupon> written =
          store.transition(
              coupon,
              to.next(),
              event.orderId(),
              clock.instant().truncatedTo(ChronoUnit.MICROS)); // Firestore keeps micros
      if (written.isPresent()) {
        return new RedemptionOutcome.Applied(written.get());
      }
    }
    return new RedemptionOutcome.Busy();
  }

  /** The answer of a transition that changes nothing on the coupon: a repeat or a refusal. */
  private static RedemptionOutcome unchanged(
      RedeemableCoupon coupon, RedeemableCoupon.Transition transition) {
    if (transition instanceof RedeemableCoupon.Transition.AlreadyApplied) {
      return new RedemptionOutcome.AlreadyApplied(coupon);
    } else if (transition instanceof RedeemableCoupon.Transition.NotAssigned) {
      return new RedemptionOutcome.NotAssigned(coupon);
    } else if (transition instanceof RedeemableCoupon.Transition.Refused refused) {
      return new RedemptionOutcome.InvalidTransition(coupon, refused.reason());
    }
    throw new IllegalStateException("a transition that changes the coupon: " + transition);
  }
}
