package flashclaim.store.firestore;

import com.google.cloud.Timestamp;
import com.google.cloud.firestore.DocumentReference;
import flashclaim.StoreException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Unassigned coupons of one campaign that one instance has seen and not yet tried: the claims of
 * an instance share its probes of the pool instead of each running its own query.
 *
 * <p>One probe (a query) yields several candidates, and every concurrent claim of the instance
 * takes a different one, so claims of one instance never race each other for a coupon, and the
 * costly query runs once per batch of claims instead of once per claim. A candidate is only a hint:
 * the commit's update-time precondition decides, so a candidate taken meanwhile by another
 * instance costs one failed commit, never a duplicate. Candidates older than {@code maxAge} are
 * dropped unused, since the older a hint, the likelier it is stale.
 *
 * <p>Refills run ahead of need: when a take leaves fewer than {@code refillBelow} candidates, the
 * next probe starts in the background (on {@code probes}, at most one per pool at a time), so the
 * claims of a busy instance rarely wait for a query; the waits for one are counted, with their
 * time ({@link ContentionCounters}). A coupon this pool handed out in the last
 * {@code maxAge} is never queued again, even when a probe that ran before its commit still saw it
 * unassigned: it would only cost a failed commit.
 *
 * <p>Sold out is shared too: when one probe proves the pool empty (a single query over the whole
 * range found nothing), every claim that started before that query ran may answer sold out without
 * a query of its own. That is exact (G3): for each of those claims, there was a moment during the
 * claim at which no unassigned coupon existed. Claims that start later probe again, so coupons
 * added after a sell-out are found.
 */
final class CandidatePool {
  /** A coupon that a probe saw unassigned at {@code updateTime}. */
  record Candidate(DocumentReference ref, String code, Timestamp updateTime, Instant seenAt) {}

  /** What {@link #take} returns when the pool was proven empty during the claim. */
  static final Candidate NONE_LEFT = new Candidate(null, null, null, Instant.MIN);

  /**
   * What {@link #take} returns when a probe that began before the claim, and ended after it
   * started, found the pool empty ({@link #foundEmptyFrom} tells when it began), and no candidate
   * is left: not a proof for this claim, since coupons may have been added after that probe
   * began. A take after it probes again.
   */
  static final Candidate EMPTY_BEFORE = new Candidate(null, null, null, Instant.MIN);

  /** Probes the store: candidates, or an empty list as the proof that none is left. */
  interface Probe {
    /**
     * @param limit how many candidates to read at most
     * @param soldOutBefore the previous probe found the pool empty: the next one may skip straight
     *     to the query that proves it again, since coupons are added rarely
     */
    List<Candidate> run(int limit, boolean soldOutBefore);
  }

  private final Queue<Candidate> queue = new ConcurrentLinkedQueue<>();
  /** Document paths of the queued and recently handed-out candidates, with when they were seen. */
  private final Map<String, Instant> known = new ConcurrentHashMap<>();

  private final Duration maxAge;
  private final int refillBelow;
  private final int firstProbe;
  private final int maxProbe;
  private final Demand demand;
  private final Executor probes;
  private final Clock clock;
  private final ContentionCounters counters;
  /** The latest probe that found the pool empty, while no later one found coupons; or null. */
  private volatile Empty empty;
  /** The latest probe found fewer coupons than it asked for. */
  private volatile boolean runningOut;
  /** The probe in flight, or a finished one; guarded by {@code this}. */
  private CompletableFuture<Void> refill = CompletableFuture.completedFuture(null);
  /** Whether a probe has started; guarded by {@code this}. */
  private boolean probed;

  /**
   * @param firstProbe the least the pool's first probe reads
   * @param maxProbe the most candidates one probe reads; a probe reads what the claims of the last
   *     {@code maxAge} took (the candidates' useful life), at least {@code 2 * refillBelow}
   * @param counters where the waits of claims for a probe are counted
   */
  CandidatePool(
      Duration maxAge,
      int refillBelow,
      int firstProbe,
      int maxProbe,
      Executor probes,
      Clock clock,
      ContentionCounters counters) {
    this.maxAge = maxAge;
    this.refillBelow = refillBelow;
    this.firstProbe = firstProbe;
    this.maxProbe = Math.max(1, maxProbe);
    this.demand = new Demand(maxAge, clock);
    this.probes = probes;
    this.clock = clock;
    this.counters = counters;
  }

  /**
   * A candidate for a claim that started at {@code claimStarted}: from the pool if it has a fresh
   * one, else from the probe in flight or a new one (one probe at a time per pool; every claim
   * that waits shares its result).
   *
   * @return a candidate; {@link #NONE_LEFT} when a probe that started after {@code claimStarted}
   *     found the pool empty; {@link #EMPTY_BEFORE} when one that began before it and ended after
   *     it did; null when no candidate could be had before {@code deadline}
   * @throws StoreException when the probe failed
   */
  Candidate take(Instant claimStarted, Instant deadline, Probe probe) throws InterruptedException {
    while (true) {
      Candidate candidate = pollFresh();
      if (candidate != null) {
        demand.taken();
        if (queue.size() < refillBelow) {
          refill(probe); // ahead of need; nobody waits for it
        }
        return candidate;
      }
      Empty found = empty;
      if (found != null && !found.began().isBefore(claimStarted)) {
        return NONE_LEFT;
      }
      if (found != null && found.ended().isAfter(claimStarted)) {
        return EMPTY_BEFORE;
      }
      CompletableFuture<Void> refilled = refill(probe);
      long wait = Duration.between(clock.instant(), deadline).toMillis();
      if (wait <= 0) {
        return null;
      }
      long waitedFrom = System.nanoTime();
      try {
        refilled.get(wait, TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        return null;
      } catch (ExecutionException e) {
        throw e.getCause() instanceof StoreException store
            ? store
            : new StoreException("probing the pool failed: " + e.getCause(), e.getCause());
      } finally {
        counters.waitedForCandidate(System.nanoTime() - waitedFrom);
      }
      // the probe added candidates, or proved the pool empty: look again
    }
  }

  /**
   * When the latest probe that found the pool empty began, whether or not a claim still waited
   * for it; null when none did, or a later probe found candidates.
   */
  Instant foundEmptyFrom() {
    Empty found = empty;
    return found == null ? null : found.began();
  }

  /**
   * Whether the latest probe found fewer unassigned coupons than it asked for (or none): it saw
   * every coupon the pool had left, so the pool is about to run out, if it has not already.
   */
  boolean runningOut() {
    return runningOut;
  }

  /** Puts back a candidate that was not used (its claim lost for another reason). */
  void giveBack(Candidate candidate) {
    queue.offer(candidate);
  }

  /** Candidates queued now (for tests). */
  int queued() {
    return queue.size();
  }

  /** The probe in flight, or a new one started now if none is. */
  private synchronized CompletableFuture<Void> refill(Probe probe) {
    if (!refill.isDone()) {
      return refill;
    }
    Instant started = clock.instant();
    boolean soldOutBefore = empty != null;
    long wanted = Math.max(2L * refillBelow, demand.recent());
    if (!probed) {
      wanted = Math.max(wanted, firstProbe);
      probed = true;
    }
    int limit = (int) Math.max(1, Math.min(maxProbe, wanted));
    try {
      refill =
          CompletableFuture.runAsync(
              () -> absorb(started, limit, probe.run(limit, soldOutBefore)), probes);
    } catch (RejectedExecutionException e) {
      refill = CompletableFuture.failedFuture(new StoreException("the instance is stopping", e));
    }
    return refill;
  }

  private void absorb(Instant probeStarted, int limit, List<Candidate> found) {
    if (found.isEmpty()) {
      empty = new Empty(probeStarted, clock.instant());
      runningOut = true;
      return;
    }
    empty = null; // coupons were added after a sell-out
    Instant forgetBefore = clock.instant().minus(maxAge);
    known.values().removeIf(seen -> seen.isBefore(forgetBefore));
    for (Candidate candidate : found) {
      if (known.putIfAbsent(candidate.ref().getPath(), candidate.seenAt()) == null) {
        queue.offer(candidate);
      }
    }
    runningOut = found.size() < limit; // told once the candidates it found are queued
  }

  /** A probe that found the pool empty: when it began, and when its answer came. */
  private record Empty(Instant began, Instant ended) {}

  /**
   * Candidates taken over the last {@code window}, in two halves: an estimate of how many the next
   * window will take. Small probes when claims are few (each candidate read costs a document read
   * on Firestore), large ones in a rush (each probe costs a scan on the emulator).
   */
  private static final class Demand {
    private final long halfMillis;
    private final Clock clock;
    private long currentHalf;
    private long current;
    private long previous;

    Demand(Duration window, Clock clock) {
      this.halfMillis = Math.max(1, window.toMillis() / 2);
      this.clock = clock;
    }

    synchronized void taken() {
      roll();
      current++;
    }

    /** Taken in the last window: the previous half and the current one. */
    synchronized long recent() {
      roll();
      return previous + current;
    }

    private void roll() {
      long half = clock.millis() / halfMillis;
      if (half != currentHalf) {
        previous = half == currentHalf + 1 ? current : 0;
        current = 0;
        currentHalf = half;
      }
    }
  }

  private Candidate pollFresh() {
    Instant oldest = clock.instant().minus(maxAge);
    Candidate candidate;
    while ((candidate = queue.poll()) != null) {
      if (candidate.seenAt().isAfter(oldest)) {
        return candidate;
      }
    }
    return null;
  }
}
