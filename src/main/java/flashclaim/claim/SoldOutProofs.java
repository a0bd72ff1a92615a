package flashclaim.claim;

import flashclaim.StoreException;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CampaignStore;
import flashclaim.campaign.PoolAdditions;
import io.micronaut.scheduling.TaskExecutors;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
 * may have been added in between), so a claim joins a read only if that read has not started yet:
 * the one planned, or else the one planned to follow the read in flight. A read is marked started
 * under the same lock as claims join, so no claim joins one that had begun. One read per campaign
 * is in flight at a time, and the next starts no sooner than {@code
 * flashclaim.sold-out.counter-read-interval} after the last one started; however many claims
 * arrive, an instance reads the counter at most once per interval (or per round trip, if longer).
 * No claim holds a thread while it waits ({@link #checkAsync}); the reads run on the I/O pool.
 * Reads happen only after this instance has seen the pool empty, or suspects it (below); a claim
 * that wins a coupon drops the campaign's proof, so claims of a pool with coupons never pay for a
 * read.
 *
 * <p><b>A query that outlived its claim.</b> On a saturated store a query of an emptied pool can
 * take longer than a claim's deadline: every claim then answers busy, none sees the empty result,
 * and without a proof every retry queries again. So a claim that the store answered busy makes the
 * campaign suspected ({@link #suspect}): the instance reads the counter in the background, no
 * claim waiting for it, at most once per interval while claims keep coming back busy. The store
 * tells when its latest query that found the pool empty began, also one whose claim had given up
 * ({@link ClaimStore#foundEmptyFrom}). Once a read {@code R0} returned before that moment, with
 * every read since returning the same value, a claim waits for a read of its own as above, and if
 * that one returns the same value too, the pair is the proof. Until then the claims of a suspected
 * campaign do not wait for any read.
 *
 * <p><b>The query that found the pool empty.</b> The same holds for the claims that came while
 * that query ran: they wait for it, it began before them and proves nothing for them alone. So
 * while the store reports the pool running out ({@link ClaimStore#runningOut}), a claim that wins
 * makes the campaign suspected, and the counter is read before that query begins; a claim the
 * store tells of it ({@link ClaimStore.Attempt.FoundEmptyBefore}) then checks with that moment,
 * and one read of the counter answers it instead of a query of its own.
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
  private final Executor reader;
  private final Map<CampaignId, Watch> watches = new ConcurrentHashMap<>();
  private final LongAdder reads = new LongAdder();
  private final LongAdder provenSoldOuts = new LongAdder();

  /**
   * @param reader runs the reads of the counter (blocking store calls; at most one in flight per
   *     watched campaign)
   */
  public SoldOutProofs(
      CampaignStore campaigns,
      SoldOutConfig config,
      Clock clock,
      @Named(TaskExecutors.IO) Executor reader) {
    this.campaigns = campaigns;
    this.config = config;
    this.clock = clock;
    this.reader = reader;
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
    return check(campaign, deadline, null);
  }

  /**
   * {@link #check}, where {@code emptyFrom}, when the store's latest query that found the pool
   * empty began ({@link ClaimStore#foundEmptyFrom}; null when none did), may make a proof with the
   * claim's read.
   */
  public Check check(CampaignId campaign, Instant deadline, Instant emptyFrom) {
    CompletableFuture<Check> check = checkAsync(campaign, emptyFrom);
    try {
      awaitDone(check, deadline);
    } catch (TimeoutException e) {
      return new Check.TimedOut();
    }
    try {
      return check.join();
    } catch (CompletionException e) {
      throw new StoreException("reading the campaign's additions failed: " + e.getCause(), e.getCause());
    }
  }

  /**
   * {@link #check} without a thread waiting: completes when the shared read has returned (on the
   * thread that read it), or at once when no read is needed; fails when the read failed.
   */
  public CompletableFuture<Check> checkAsync(CampaignId campaign) {
    return checkAsync(campaign, null);
  }

  private CompletableFuture<Check> checkAsync(CampaignId campaign, Instant emptyFrom) {
    Watch watch = activeWatch(campaign);
    if (watch == null || !watch.worthReading(emptyFrom)) {
      return CompletableFuture.completedFuture(NOT_READ);
    }
    return watch.nextRead(campaign).thenApply(seen -> checked(watch, seen, emptyFrom));
  }

  /** Whether this instance holds a proof for the campaign now (a later claim may still break it). */
  public boolean hasProof(CampaignId campaign) {
    Watch watch = activeWatch(campaign);
    return watch != null && watch.proof != null;
  }

  /** The campaign's watch, if the fast path is on and this instance has seen its pool empty. */
  private Watch activeWatch(CampaignId campaign) {
    return config.fastPath() ? watches.get(campaign) : null;
  }

  private Check checked(Watch watch, Optional<PoolAdditions> seen, Instant emptyFrom) {
    if (seen.isEmpty()) {
      return NOT_READ;
    }
    PoolAdditions proof = watch.proof;
    if (proof != null && seen.get().nothingAddedSince(proof)) {
      return new Check.Proven(proof);
    }
    if (emptyFrom != null && watch.unchangedFrom(seen.get(), emptyFrom)) {
      watch.prove(seen.get()); // a query that began after an unchanged read found the pool empty
      return new Check.Proven(seen.get());
    }
    return new Check.Unproven(seen.get());
  }

  private void awaitDone(CompletableFuture<?> read, Instant deadline) throws TimeoutException {
    long wait = Duration.between(clock.instant(), deadline).toNanos();
    if (wait <= 0) {
      throw new TimeoutException();
    }
    try {
      read.handle((result, failure) -> null).get(wait, TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException("unreachable: handle() never fails", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreException("interrupted while reading the campaign's additions", e);
    }
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
    watch.seenEmpty = true;
    if (check instanceof Check.Unproven unproven
        && unproven.seen() != null
        && !unproven.seen().inProgress()) {
      watch.prove(unproven.seen());
    }
  }

  /**
   * The store answered a claim of the campaign busy because no query of its pool returned before
   * the deadline: the pool may be empty behind a query slower than that; or its latest query found
   * fewer coupons than it asked for ({@link ClaimStore#runningOut}): the query that will find the
   * pool empty is near, and the claims that come while it runs can be proven sold out from it
   * ({@link ClaimStore.Attempt.FoundEmptyBefore}) only after a read that returned before it
   * began. Starts a read of the
   * counter that no claim waits for, unless one is planned or in flight, or the last one started
   * less than {@code suspect-read-interval} ago, so that a query that ends after its claim gave up
   * can make a proof.
   */
  public void suspect(CampaignId campaign) {
    if (config.fastPath()) {
      watch(campaign).readSuspected(campaign);
    }
  }

  /**
   * A claim of the campaign won a coupon: the pool is not empty; its proof is dropped and its
   * claims stop reading. The campaign stays watched, so that a suspicion that follows reads no
   * sooner than the interval after the last read.
   */
  public void found(CampaignId campaign) {
    Watch watch = watches.get(campaign);
    if (watch != null) {
      watch.dropProof();
    }
  }

  /** Reads of the counter this instance made. */
  public long reads() {
    return reads.sum();
  }

  /** A claim was answered on a proof ({@link Check.Proven}), without a pool query. */
  public void answeredOnProof() {
    provenSoldOuts.increment();
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

  /** One read of the counter, planned until its reader marks it started. */
  private static final class Flight {
    final CompletableFuture<Optional<PoolAdditions>> result = new CompletableFuture<>();
    boolean started; // guarded by the Watch
  }

  /**
   * A campaign this instance has seen sold out, or suspects: its proof, if any, and its reads.
   */
  private final class Watch {
    private volatile PoolAdditions proof;
    /** A claim saw the pool empty; else the campaign is only suspected ({@link #suspect}). */
    private volatile boolean seenEmpty;
    /** The value the last reads returned, with no addition in progress; guarded by {@code this}. */
    private PoolAdditions unchanged;
    /** When the first read of the run that returned {@link #unchanged} returned; guarded. */
    private Instant unchangedSince;
    /** The read in flight or planned; guarded by {@code this}. */
    private Flight current;
    /** The read that follows {@link #current} once it has started; guarded by {@code this}. */
    private Flight next;
    /** When the last read started ({@link System#nanoTime}); guarded by {@code this}. */
    private long lastStart =
        System.nanoTime()
            - Math.max(config.counterReadInterval().toNanos(), config.suspectReadInterval().toNanos());

    /**
     * Whether a claim should wait for a read: when the watch holds a proof, when a claim saw the
     * pool empty, or when a query that found it empty ({@code emptyFrom}) began after the unchanged
     * reads had begun.
     */
    synchronized boolean worthReading(Instant emptyFrom) {
      return proof != null || seenEmpty || (emptyFrom != null && unchangedBy(emptyFrom));
    }

    /**
     * Whether every read since one that returned no later than {@code moment} returned {@code
     * seen}, with no addition in progress.
     */
    synchronized boolean unchangedFrom(PoolAdditions seen, Instant moment) {
      return unchangedBy(moment) && seen.nothingAddedSince(unchanged);
    }

    /** Whether the run of reads of one unchanged value began no later than {@code moment}. */
    private boolean unchangedBy(Instant moment) {
      return unchanged != null && !unchangedSince.isAfter(moment);
    }

    /** A read returned {@code value} now. */
    private synchronized void returned(Optional<PoolAdditions> value) {
      if (value.isEmpty() || value.get().inProgress()) {
        unchanged = null;
      } else if (unchanged == null || !value.get().nothingAddedSince(unchanged)) {
        unchanged = value.get();
        unchangedSince = clock.instant();
      }
    }

    synchronized void dropProof() {
      proof = null;
      seenEmpty = false;
    }

    synchronized void prove(PoolAdditions seen) {
      if (proof == null || seen.count() > proof.count()) {
        proof = seen;
      }
    }

    /**
     * The result of a read that starts after this call: the current one if it has not started
     * yet, else the one that follows it. A read is marked started under the same lock, so a
     * claim never joins a read that had begun before it arrived.
     */
    synchronized CompletableFuture<Optional<PoolAdditions>> nextRead(CampaignId campaign) {
      if (current == null) {
        current = new Flight();
        plan(current, campaign);
        return current.result;
      }
      if (!current.started) {
        return current.result;
      }
      if (next == null) {
        next = new Flight(); // planned when the current one ends: one read in flight at a time
      }
      return next.result;
    }

    /** {@link #suspect}: a read no claim waits for, at most one per suspect-read-interval. */
    synchronized void readSuspected(CampaignId campaign) {
      boolean recent = System.nanoTime() - lastStart < config.suspectReadInterval().toNanos();
      if (current == null && !recent) {
        nextRead(campaign);
      }
    }

    /** Starts the read no sooner than the interval after the last read started. */
    private void plan(Flight flight, CampaignId campaign) {
      long delay = lastStart + config.counterReadInterval().toNanos() - System.nanoTime();
      Executor when =
          delay > 0 ? CompletableFuture.delayedExecutor(delay, TimeUnit.NANOSECONDS, reader) : reader;
      try {
        when.execute(() -> read(flight, campaign));
      } catch (RejectedExecutionException e) {
        ended(flight, campaign);
        flight.result.completeExceptionally(new StoreException("no thread to read the campaign's additions", e));
      }
    }

    private void read(Flight flight, CampaignId campaign) {
      synchronized (this) {
        flight.started = true;
        lastStart = System.nanoTime();
      }
      Optional<PoolAdditions> result;
      try {
        reads.increment();
        result = campaigns.couponsAdded(campaign);
      } catch (RuntimeException e) {
        ended(flight, campaign);
        flight.result.completeExceptionally(e);
        return;
      }
      returned(result);
      ended(flight, campaign);
      flight.result.complete(result);
    }

    /** Before the result is published: the next read is planned, and later claims join it. */
    private synchronized void ended(Flight finished, CampaignId campaign) {
      if (current != finished) {
        return;
      }
      current = next;
      next = null;
      if (current != null) {
        plan(current, campaign);
      }
    }
  }
}
