package flashclaim.claim;

import flashclaim.StoreException;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CampaignStore;
import flashclaim.campaign.PoolAdditions;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.atomic.LongAdder;

/**
 * The sold-out fast path: once this instance has proven a campaign's pool empty, a later claim
 * answers sold out after one read by id of the campaign's additions counter ({@link
 * CampaignStore#couponsAdded}), shared with the claims that arrived with it, instead of a query of
 * the pool.
 *
 * <p><b>The proof.</b> A read {@code R0} of the counter returns {@code (n, not in progress)}; then a
 * pool query {@code Q}, started after {@code R0} had returned, finds no unassigned coupon. That pair
 * is the proof, kept per campaign.
 *
 * <p><b>Why a proven sold-out is exact (G3).</b> A claim that arrives at {@code a} waits for a read
 * {@code R1} of the counter that started after {@code a}. If {@code R1} returns {@code (n, not in
 * progress)} too, then by the port's contract no coupon became visible between {@code R0} and
 * {@code R1}. {@code Q} ran between them and saw none unassigned, and an assigned coupon is never
 * unassigned again; so at {@code R1}, a moment during the claim, no unassigned coupon existed, and
 * "sold out" is the truth. Any other answer of {@code R1} (another count, an addition in progress)
 * sends the claim to the pool query, as without this class. Why the stores meet the contract:
 *
 * <ul>
 *   <li>PostgreSQL moves the count in the same statement, and so the same transaction, as the
 *       inserts: the coupons and the count become visible at one commit, never one without the
 *       other, also when the instance dies in the middle (the transaction rolls back).
 *   <li>Firestore cannot write the campaign document once per batch of coupons (it sustains about
 *       one write per second per document), so each seeding call moves the count once before its
 *       first batch and reports itself in progress from then on, until it records its end after
 *       its last batch. A seeding call that dies leaves no end behind: it stays in progress until
 *       its lease ({@code flashclaim.seeding.max-duration}) has run out, by which time the call
 *       has stopped writing. A coupon that appears between {@code R0} and {@code R1} was written
 *       either by a call that began after {@code R0} (then {@code R1} sees another count) or by
 *       one that was in progress at {@code R0} (then there is no proof) or at {@code R1} (then
 *       there is no fast answer).
 * </ul>
 *
 * <p><b>Shared reads.</b> A read that started before a claim arrived proves nothing for it (coupons
 * may have been added in between), so a claim joins the read in flight only if that read started
 * after the claim arrived, and otherwise waits for the next one. One read per campaign is in flight
 * at a time, and the next one starts no sooner than {@code flashclaim.sold-out.counter-read-interval}
 * after the last one started: a read is planned for that moment, the claims that arrive before it
 * join it, and its reader waits for the moment before it reads. However many claims arrive, an
 * instance reads the counter at most once per interval (or per round trip, if longer). Reads happen only after this instance
 * has seen the pool empty; a claim that wins a coupon drops the campaign's proof, so claims of a
 * pool with coupons never pay for a read.
 *
 * <p>A user who holds a coupon still gets it back (G4): {@link ClaimService} reads the holdings
 * before a sold-out answer, unless this instance's snapshot of the holders under the same proof
 * ({@link SoldOutHolders}) shows that the user holds nothing.
 */
@Singleton
public class SoldOutProofs {
  private final CampaignStore campaigns;
  private final SoldOutConfig config;
  private final Clock clock;
  private final Map<CampaignId, Watch> watches = new ConcurrentHashMap<>();
  private final LongAdder reads = new LongAdder();
  private final LongAdder provenSoldOuts = new LongAdder();

  public SoldOutProofs(CampaignStore campaigns, SoldOutConfig config, Clock clock) {
    this.campaigns = campaigns;
    this.config = config;
    this.clock = clock;
  }

  /** What {@link #check} found for a claim. */
  public sealed interface Check {
    /**
     * The pool is proven empty at a moment during the claim: answer sold out, no pool query. {@code
     * proof} is the counter as read before the query that found the pool empty.
     */
    record Proven(PoolAdditions proof) implements Check {}

    /**
     * No proof holds for this claim: query the pool. {@code seen} is the counter as read before the
     * query (null when the instance had no reason to read it), to make a proof of an empty result.
     */
    record Unproven(PoolAdditions seen) implements Check {}

    /** The deadline passed while the claim waited for a read of the counter. */
    record TimedOut() implements Check {}
  }

  private static final Check NOT_READ = new Check.Unproven(null);

  /**
   * Whether a claim arriving now may answer sold out without a pool query. Reads the counter (a
   * shared read that starts after this call) only for a campaign this instance has seen sold out.
   *
   * @throws StoreException when the read of the counter failed
   */
  public Check check(CampaignId campaign, Instant deadline) {
    if (!config.fastPath()) {
      return NOT_READ;
    }
    Watch watch = watches.get(campaign);
    if (watch == null) {
      return NOT_READ;
    }
    long arrived = System.nanoTime();
    Optional<PoolAdditions> seen;
    try {
      seen = watch.readStartedAfter(arrived, campaign, deadline);
    } catch (TimeoutException e) {
      return new Check.TimedOut();
    }
    if (seen.isEmpty()) {
      return NOT_READ;
    }
    PoolAdditions proof = watch.proof;
    if (proof != null && seen.get().nothingAddedSince(proof)) {
      provenSoldOuts.increment();
      return new Check.Proven(proof);
    }
    return new Check.Unproven(seen.get());
  }

  /**
   * A pool query that ran after {@code check} found no unassigned coupon. With the counter read
   * before it and no addition in progress, that is a proof; without a read it makes the next
   * claims read the counter, so that one of them can make the proof.
   */
  public void noneLeft(CampaignId campaign, Check check) {
    if (!config.fastPath()) {
      return;
    }
    Watch watch = watch(campaign);
    if (check instanceof Check.Unproven unproven
        && unproven.seen() != null
        && !unproven.seen().inProgress()) {
      watch.prove(unproven.seen());
    }
  }

  /** A claim of the campaign won a coupon: the pool is not empty; its claims stop reading. */
  public void found(CampaignId campaign) {
    watches.remove(campaign);
  }

  /** Reads of the counter this instance made. */
  public long reads() {
    return reads.sum();
  }

  /** Claims this instance answered sold out on a proof, without a pool query. */
  public long provenSoldOuts() {
    return provenSoldOuts.sum();
  }

  private Watch watch(CampaignId campaign) {
    Watch watch = watches.get(campaign);
    if (watch != null) {
      return watch;
    }
    if (watches.size() >= Math.max(1, config.maxCampaigns())) {
      watches.clear(); // dropping proofs only costs a pool query each
    }
    return watches.computeIfAbsent(campaign, id -> new Watch());
  }

  /** One read of the counter: when it started ({@link System#nanoTime}) and its result. */
  private record Flight(long startedAt, CompletableFuture<Optional<PoolAdditions>> result) {}

  /** A campaign this instance has seen sold out: its proof, if any, and the read in flight. */
  private final class Watch {
    private volatile PoolAdditions proof;
    /** The read in flight or planned; guarded by {@code this}. */
    private Flight flight;
    /** When the last read started or is planned to ({@link System#nanoTime}); guarded by this. */
    private long lastStart = System.nanoTime() - config.counterReadInterval().toNanos();

    synchronized void prove(PoolAdditions seen) {
      if (proof == null || seen.count() > proof.count()) {
        proof = seen;
      }
    }

    /**
     * The counter as read by a read that started after {@code arrived}: the one in flight if it
     * started late enough, else the next one, which this thread may have to start itself.
     */
    Optional<PoolAdditions> readStartedAfter(long arrived, CampaignId campaign, Instant deadline)
        throws TimeoutException {
      while (true) {
        Flight current;
        boolean mine = false;
        synchronized (this) {
          if (flight == null) {
            long now = System.nanoTime();
            long start = lastStart + config.counterReadInterval().toNanos();
            lastStart = start - now > 0 ? start : now;
            flight = new Flight(lastStart, new CompletableFuture<>());
            mine = true;
          }
          current = flight;
        }
        if (mine) {
          return read(current, campaign);
        }
        awaitDone(current, deadline);
        if (current.startedAt() - arrived > 0) {
          return resultOf(current);
        }
        // That read started before this claim arrived: it proves nothing for it. The next one will.
      }
    }

    private Optional<PoolAdditions> read(Flight mine, CampaignId campaign) {
      try {
        waitUntil(mine.startedAt());
        reads.increment();
        Optional<PoolAdditions> result = campaigns.couponsAdded(campaign);
        done(mine);
        mine.result().complete(result);
        return result;
      } catch (RuntimeException e) {
        done(mine);
        mine.result().completeExceptionally(e);
        throw e;
      }
    }

    /**
     * Until the planned start of a read: a claim that joined it arrived before that moment, so the
     * read must not begin earlier. At most the read interval; the claims' deadlines are far longer.
     */
    private void waitUntil(long start) {
      long wait;
      while ((wait = start - System.nanoTime()) > 0) {
        LockSupport.parkNanos(wait);
        if (Thread.interrupted()) {
          Thread.currentThread().interrupt();
          throw new StoreException("interrupted while waiting to read the campaign's additions", null);
        }
      }
    }

    /** Before the result is published, so that claims arriving from now on start a new read. */
    private synchronized void done(Flight finished) {
      if (flight == finished) {
        flight = null;
      }
    }

    private void awaitDone(Flight flight, Instant deadline) throws TimeoutException {
      long wait = Duration.between(clock.instant(), deadline).toNanos();
      if (wait <= 0) {
        throw new TimeoutException();
      }
      try {
        flight.result().handle((result, failure) -> null).get(wait, TimeUnit.NANOSECONDS);
      } catch (ExecutionException e) {
        throw new IllegalStateException("unreachable: handle() never fails", e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new StoreException("interrupted while reading the campaign's additions", e);
      }
    }

    /** The result of a finished read; its failure is the failure of every claim that shared it. */
    private Optional<PoolAdditions> resultOf(Flight flight) {
      try {
        return flight.result().join();
      } catch (java.util.concurrent.CompletionException e) {
        throw new StoreException("reading the campaign's additions failed: " + e.getCause(), e.getCause());
      }
    }
  }
}
