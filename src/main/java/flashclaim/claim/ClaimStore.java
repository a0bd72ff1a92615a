package flashclaim.claim;

import flashclaim.Deadline;
import flashclaim.campaign.Campaign;
import flashclaim.campaign.CampaignId;
import io.micronaut.core.annotation.Nullable;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;

/**
 * Port: the atomic steps of a claim that a store must provide. The rules around them (campaign
 * window, per-user limit, idempotent repeats, deadline) live once in {@link ClaimService}.
 *
 * <p>Every call of a claim follows its {@link Deadline}: no store call starts once it has passed,
 * and none waits longer than what is left of it (at most the store's call timeout). Every method
 * may throw {@link flashclaim.StoreException} when the store fails, does not answer in time or the
 * deadline cuts a call short; a call cut short leaves the store consistent (G5), whether or not its
 * write landed.
 */
public interface ClaimStore {

  /** The user's claims in the campaign, ordered by slot. A read; it may be slightly stale. */
  List<Claim> holdings(Campaign campaign, UserId user, Deadline deadline);

  /**
   * Tries, until {@code deadline} and no longer, to assign one unassigned coupon to the user in
   * claim slot {@code slot}. The coupon's assignment and the claim record are committed
   * atomically or not at all (G1, G5), and a slot holds at most one claim record (G2), whatever
   * other instances do at the same time.
   */
  Attempt tryClaim(Campaign campaign, UserId user, int slot, Deadline deadline);

  /**
   * When this instance's latest query of the campaign's pool that found no unassigned coupon
   * began, counting a query that ended after the claim that started it had given up; null when
   * none did, or a later query found coupons. {@link SoldOutProofs} makes a sold-out proof of it
   * with a read of the additions counter that returned before that moment.
   */
  @Nullable
  Instant foundEmptyFrom(CampaignId campaign);

  /**
   * Whether this instance's latest query of the campaign's pool found fewer unassigned coupons
   * than it asked for: the pool is about to run out, if it has not already. {@link SoldOutProofs}
   * then reads the additions counter ahead of the query that will find the pool empty, so that
   * the claims which come while that query runs can be answered from it. False for a store whose
   * queries belong to their claim ({@link #foundEmptyFrom} null).
   */
  boolean runningOut(CampaignId campaign);

  /**
   * Calls {@code userKey} with the {@link UserId#key() key} of the user of every claim record of
   * the campaign (once per record, so a user with several slots comes several times), reading the
   * records in pages of {@code pageSize}, and stops once it has seen more than {@code max}.
   *
   * @return false when the campaign has more than {@code max} claim records (the calls made so far
   *     do not cover them all)
   */
  boolean forEachHolder(Campaign campaign, int pageSize, int max, Consumer<String> userKey);

  /** Result of {@link #tryClaim}. */
  sealed interface Attempt {
    /** The coupon is now the user's. */
    record Won(Claim claim) implements Attempt {}

    /**
     * Another claim of the same user filled this slot first, or the user holds the limit; nothing
     * was assigned. {@code held} is the user's claims by slot when the store read them at that
     * moment (so the caller need not read them again), else null.
     */
    record SlotTaken(@Nullable List<Claim> held) implements Attempt {
      /** Slot taken, holdings not read. */
      public SlotTaken() {
        this(null);
      }
    }

    /** The store found no unassigned coupon. */
    record NoneLeft() implements Attempt {}

    /**
     * Nothing was tried: the store's query of the pool that began at {@code from}, before this
     * call, found no unassigned coupon, and no query since found one. Not a proof for this claim
     * (coupons may have been added after {@code from}); {@link SoldOutProofs} may make one of it
     * with a read of the additions counter. Calling again queries the pool afresh.
     */
    record FoundEmptyBefore(Instant from) implements Attempt {}

    /**
     * Lost every race until the deadline; coupons may remain. {@code poolUnread}: no query of the
     * pool returned before the deadline, so the pool may also be empty.
     */
    record Contended(boolean poolUnread) implements Attempt {
      /** Lost every race, or the deadline passed before anything was tried. */
      public Contended() {
        this(false);
      }
    }
  }
}
