package flashclaim.claim;

import flashclaim.Deadline;
import flashclaim.StoreException;
import flashclaim.campaign.Campaign;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CampaignService;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The claim rules, written once for every store: the campaign must exist, not be paused, and be
 * open, except that a user who already holds {@code perUserLimit} coupons gets the newest of them
 * back (G2, G4), also from a paused or ended campaign ({@link ClosedHolders}); otherwise the
 * store assigns a coupon into the user's next free slot, atomically, until the deadline (G1, G3, G5,
 * G6). Every store call of a claim runs within the claim's {@link Deadline}: none starts once it
 * has passed, and a call it cuts short makes the claim {@link ClaimOutcome.Busy}, not a store
 * fault. A pool this instance has proven empty answers sold out without a pool query ({@link
 * SoldOutProofs}).
 */
@Singleton
public class ClaimService {
  private final CampaignService campaigns;
  private final ClaimStore store;
  private final ClaimConfig config;
  private final Clock clock;
  private final List<ClaimListener> listeners;
  private final SoldOutProofs soldOut;
  private final SoldOutHolders holders;
  private final ClosedHolders closedHolders;
  private final SoldOutHoldingsReads holdingsReads;

  public ClaimService(
      CampaignService campaigns,
      ClaimStore store,
      ClaimConfig config,
      Clock clock,
      List<ClaimListener> listeners,
      SoldOutProofs soldOut,
      SoldOutHolders holders,
      ClosedHolders closedHolders,
      SoldOutHoldingsReads holdingsReads) {
    this.campaigns = campaigns;
    this.store = store;
    this.config = config;
    this.clock = clock;
    this.listeners = List.copyOf(listeners);
    this.soldOut = soldOut;
    this.holders = holders;
    this.closedHolders = closedHolders;
    this.holdingsReads = holdingsReads;
  }

  /** Claims a coupon of the campaign for the user, admitted now. */
  public ClaimOutcome claim(CampaignId campaignId, UserId user) {
    return claim(campaignId, user, clock.instant());
  }

  /**
   * Claims a coupon of the campaign for the user. The deadline counts from {@code admittedAt}, the
   * moment the request was let in, so time spent waiting for a thread counts against it too (G6).
   */
  public ClaimOutcome claim(CampaignId campaignId, UserId user, Instant admittedAt) {
    Deadline deadline = Deadline.after(admittedAt, config.deadline(), clock);
    ClaimOutcome outcome;
    try {
      outcome = decideBy(campaignId, user, deadline);
    } catch (RuntimeException e) {
      Duration took = Duration.between(admittedAt, clock.instant());
      if (!campaignId.isReserved()) {
        listeners.forEach(l -> l.failed(campaignId, e, took));
      }
      throw e;
    }
    return reported(campaignId, outcome, admittedAt);
  }

  /**
   * A claim decided without the store, when this instance already knows the answer: the campaign is
   * cached and not open, and the user cannot hold its limit ({@link #refusedWithoutRead}); or this
   * instance has proven its pool empty and, after the shared read of the additions counter that
   * {@link #claim} would wait for too, the proof holds and the user does not hold the limit ({@link
   * #soldOutWithoutRead}); or, while that snapshot of the holders is still being read, one read of
   * the user's own claims shows that they do not hold the limit ({@link SoldOutHoldingsReads}: no
   * admission slot or turn is needed where no coupon is left to give). No thread waits for those
   * reads. Empty when the claim needs the store (or a read failed, or did not return within the
   * deadline): then {@link #claim} decides it. The
   * refusal is not reported yet: the caller reports it ({@link #answered}) when it answers with it,
   * and may answer a repeat of an earlier claim of a user who {@link Refusal#holdsCoupons holds
   * coupons} with that claim's answer instead.
   */
  public CompletableFuture<Optional<Refusal>> decideWithoutStore(
      CampaignId campaignId, UserId user, Instant admittedAt) {
    Optional<Campaign> cached = campaigns.cached(campaignId);
    if (cached.isEmpty()) {
      return CompletableFuture.completedFuture(Optional.empty());
    }
    Campaign campaign = cached.get();
    Optional<ClaimOutcome> closed = notOpen(campaign);
    if (closed.isPresent() || !soldOut.hasProof(campaignId)) {
      return CompletableFuture.completedFuture(
          closed.flatMap(refusal -> refusedWithoutRead(campaign, user, refusal)));
    }
    Deadline deadline = Deadline.after(admittedAt, config.deadline(), clock);
    long left = Duration.between(clock.instant(), deadline.instant()).toNanos();
    return soldOut
        .checkAsync(campaignId)
        .thenCompose(check -> soldOutWithoutSlot(campaign, user, check, deadline))
        .exceptionally(failure -> Optional.empty()) // the store path reads again, and reports it
        .completeOnTimeout(Optional.empty(), Math.max(0, left), TimeUnit.NANOSECONDS);
  }

  /**
   * {@link #soldOutWithoutRead}; or, for a proven empty pool whose holders this instance has not
   * loaded yet, the same rule on a read of the user's own claims, made without a slot.
   */
  private CompletableFuture<Optional<Refusal>> soldOutWithoutSlot(
      Campaign campaign, UserId user, SoldOutProofs.Check check, Deadline deadline) {
    Optional<Refusal> known = soldOutWithoutRead(campaign, user, check);
    if (known.isPresent()
        || !(check instanceof SoldOutProofs.Check.Proven proven)
        || holders.loaded(campaign, proven.proof())) {
      return CompletableFuture.completedFuture(known);
    }
    return holdingsReads
        .heldUpToLimit(campaign, user, deadline)
        .thenApply(held -> held.flatMap(n -> refusal(campaign, n, new ClaimOutcome.SoldOut())));
  }

  /**
   * Reports a claim answered with the refusal {@link #decideWithoutStore} gave it, to the listeners
   * as {@link #claim}'s outcomes are; returns the refusal's outcome.
   */
  public ClaimOutcome answered(CampaignId campaignId, Refusal refusal, Instant admittedAt) {
    if (refusal.outcome() instanceof ClaimOutcome.SoldOut) {
      soldOut.answeredOnProof();
    }
    return reported(campaignId, refusal.outcome(), admittedAt);
  }

  /**
   * A claim refused without the store ({@link #decideWithoutStore}): {@code outcome} (not open,
   * paused, or sold out on a proof) to a user who does not hold the campaign's {@code
   * perUserLimit} coupons.
   *
   * @param holdsCoupons whether the user holds some of the campaign's coupons (fewer than the
   *     limit): then an earlier claim of theirs was answered with a coupon, and a repeat of that
   *     claim (its Idempotency-Key) is to be answered as it was, not refused. False when this
   *     instance's snapshot of the holders shows none: such a user never got a coupon of it.
   */
  public record Refusal(ClaimOutcome outcome, boolean holdsCoupons) {}

  /**
   * Not open: paused by an admin, or outside the campaign's window; the rule of both paths, so a
   * paused campaign is refused without store work once this instance holds the campaign and knows
   * the user cannot hold its limit ({@link #refusedWithoutRead}).
   */
  private Optional<ClaimOutcome> notOpen(Campaign campaign) {
    if (campaign.paused()) {
      return Optional.of(new ClaimOutcome.Paused());
    }
    Campaign.Window window = campaign.windowAt(clock.instant());
    return window == Campaign.Window.OPEN
        ? Optional.empty()
        : Optional.of(new ClaimOutcome.NotOpen(window, campaign.startsAt(), campaign.endsAt()));
  }

  /**
   * The refusal of a closed campaign without a read, when the user cannot hold its limit ({@link
   * ClosedHolders}); else empty, and the claim reads the user's claims ({@link #heldOr}).
   */
  private Optional<Refusal> refusedWithoutRead(
      Campaign campaign, UserId user, ClaimOutcome refusal) {
    return refusal(campaign, closedHolders.heldUpToLimit(campaign, user, refusal), refusal);
  }

  /**
   * Sold out without a read, when the pool is proven empty and the user cannot hold its limit
   * ({@link SoldOutHolders}); the rule of both paths.
   */
  private Optional<Refusal> soldOutWithoutRead(
      Campaign campaign, UserId user, SoldOutProofs.Check check) {
    return check instanceof SoldOutProofs.Check.Proven proven
        ? refusal(
            campaign,
            holders.heldUpToLimit(campaign, user, proven.proof()),
            new ClaimOutcome.SoldOut())
        : Optional.empty();
  }

  /** {@code outcome} for a user who holds {@code held} coupons (counted up to the limit) below it. */
  private static Optional<Refusal> refusal(Campaign campaign, int held, ClaimOutcome outcome) {
    return held >= campaign.perUserLimit()
        ? Optional.empty()
        : Optional.of(new Refusal(outcome, held > 0));
  }

  private ClaimOutcome reported(CampaignId campaignId, ClaimOutcome outcome, Instant admittedAt) {
    if (!campaignId.isReserved()) { // the warm-up's claims: no meter or dashboard counts them
      Duration took = Duration.between(admittedAt, clock.instant());
      listeners.forEach(l -> l.claimed(campaignId, outcome, took));
    }
    return outcome;
  }

  /**
   * {@link #decide}, where a store call that the deadline cut short, or kept from starting, makes
   * the claim Busy: the store was too slow for this claim, which a retry may well not find.
   */
  private ClaimOutcome decideBy(CampaignId campaignId, UserId user, Deadline deadline) {
    try {
      return decide(campaignId, user, deadline);
    } catch (StoreException e) {
      if (deadline.passed()) {
        return busy();
      }
      throw e;
    }
  }

  private ClaimOutcome decide(CampaignId campaignId, UserId user, Deadline deadline) {
    if (deadline.passed()) {
      return busy(); // waited for a thread until the deadline had passed
    }
    Optional<Campaign> found = campaigns.find(campaignId, deadline);
    if (found.isEmpty()) {
      return new ClaimOutcome.UnknownCampaign();
    }
    Campaign campaign = found.get();
    Optional<ClaimOutcome> closed = notOpen(campaign);
    if (closed.isPresent()) {
      ClaimOutcome refusal = closed.get();
      return refusedWithoutRead(campaign, user, refusal)
          .map(Refusal::outcome)
          .orElseGet(() -> heldOr(campaign, user, refusal, deadline)); // a holder gets theirs back
    }
    // With one coupon per user, the claim record of slot 0 is all there is to hold: the store's
    // commit fails on it (SlotTaken) for a user who holds one, and that is when the holdings are
    // read, unless the store sent them along. The common case, a first claim, saves a store read. Larger limits read first to find
    // a free slot.
    List<Claim> held =
        campaign.perUserLimit() == 1 ? List.of() : store.holdings(campaign, user, deadline);
    SoldOutProofs.Check soldOutCheck =
        soldOut.check(campaign.id(), deadline.instant(), store.foundEmptyFrom(campaign.id()));
    Optional<ClaimOutcome> proven = decidedBy(soldOutCheck, campaign, user, deadline);
    if (proven.isPresent()) {
      return proven.get();
    }
    // Each pass returns, sees one more claim of the user (SlotTaken), or after a query of the pool
    // that ran while it waited for it queries afresh (FoundEmptyBefore, unproven); the deadline
    // bounds them all.
    while (true) {
      if (held.size() >= campaign.perUserLimit()) {
        return new ClaimOutcome.AlreadyHeld(held.get(held.size() - 1));
      }
      if (deadline.passed()) {
        return busy();
      }
      ClaimStore.Attempt attempt = store.tryClaim(campaign, user, freeSlot(held), deadline);
      if (attempt instanceof ClaimStore.Attempt.Won won) {
        soldOut.found(campaign.id());
        if (store.runningOut(campaign.id())) {
          soldOut.suspect(campaign.id()); // read the counter before the query that finds none
        }
        return new ClaimOutcome.Claimed(won.claim());
      } else if (attempt instanceof ClaimStore.Attempt.NoneLeft) {
        soldOut.noneLeft(campaign.id(), soldOutCheck);
        return heldOr(campaign, user, new ClaimOutcome.SoldOut(), deadline);
      } else if (attempt instanceof ClaimStore.Attempt.FoundEmptyBefore empty) {
        // The query that found the pool empty ran while this claim waited for it: a read of the
        // counter proves it for this claim too, if an unchanged read returned before it began.
        proven =
            decidedBy(
                soldOut.check(campaign.id(), deadline.instant(), empty.from()),
                campaign,
                user,
                deadline);
        if (proven.isPresent()) {
          return proven.get();
        }
        // unproven: the next pass queries the pool afresh, its proof still soldOutCheck's read
      } else if (attempt instanceof ClaimStore.Attempt.Contended contended) {
        if (contended.poolUnread()) {
          soldOut.suspect(campaign.id()); // the pool may be empty behind a query slower than that
        }
        return heldOr(campaign, user, busy(), deadline);
      } else if (attempt instanceof ClaimStore.Attempt.SlotTaken taken && taken.held() != null) {
        held = taken.held();
      } else {
        held = store.holdings(campaign, user, deadline); // SlotTaken, holdings not read
      }
    }
  }

  /**
   * What a check of the sold-out proof decides: sold out when it holds (from this instance's
   * snapshot of the holders without a read, else after a read of the user's holdings), busy when
   * the deadline passed while it read the counter; empty when the pool must be queried.
   */
  private Optional<ClaimOutcome> decidedBy(
      SoldOutProofs.Check check, Campaign campaign, UserId user, Deadline deadline) {
    Optional<Refusal> known = soldOutWithoutRead(campaign, user, check);
    if (known.isPresent()) {
      soldOut.answeredOnProof();
      return Optional.of(known.get().outcome()); // no read at all: user below the limit
    } else if (check instanceof SoldOutProofs.Check.Proven) {
      soldOut.answeredOnProof();
      return Optional.of(heldOr(campaign, user, new ClaimOutcome.SoldOut(), deadline));
    } else if (check instanceof SoldOutProofs.Check.TimedOut) {
      return Optional.of(heldOr(campaign, user, busy(), deadline));
    }
    return Optional.empty();
  }

  /**
   * A user who already holds the limit gets the held coupon (G4), even when the pool is empty or
   * busy, or the campaign is paused or has ended; anyone else gets {@code otherwise}. Past the
   * deadline the holdings cannot be read, and only Busy is sure to be true: a retry finds the held
   * coupon.
   */
  private ClaimOutcome heldOr(
      Campaign campaign, UserId user, ClaimOutcome otherwise, Deadline deadline) {
    if (deadline.passed()) {
      return busy();
    }
    List<Claim> held = store.holdings(campaign, user, deadline);
    return held.size() >= campaign.perUserLimit()
        ? new ClaimOutcome.AlreadyHeld(held.get(held.size() - 1))
        : otherwise;
  }

  /** The user's claims in the campaign; empty when the campaign does not exist. */
  public Optional<List<Claim>> holdings(CampaignId campaignId, UserId user) {
    return campaigns
        .find(campaignId)
        .map(campaign -> store.holdings(campaign, user, Deadline.none()));
  }

  private ClaimOutcome busy() {
    return new ClaimOutcome.Busy(config.retryAfter());
  }

  private static int freeSlot(List<Claim> held) {
    boolean[] used = new boolean[held.size() + 1];
    for (Claim claim : held) {
      if (claim.slot() < used.length) {
        used[claim.slot()] = true;
      }
    }
    for (int slot = 0; slot < used.length; slot++) {
      if (!used[slot]) {
        return slot;
      }
    }
    throw new IllegalStateException("unreachable: held.size() + 1 slots cannot all be used");
  }
}
