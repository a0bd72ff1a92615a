package flashclaim.store.firestore;

import com.google.cloud.Timestamp;
import com.google.cloud.firestore.DocumentReference;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

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

  private final Queue<Candidate> queue = new ConcurrentLinkedQueue<>();
  private final ReentrantLock refill = new ReentrantLock();
  private final Duration maxAge;
  private final Clock clock;
  private volatile Instant provenEmptyAt = Instant.MIN;

  CandidatePool(Duration maxAge, Clock clock) {
    this.maxAge = maxAge;
    this.clock = clock;
  }

  /** Probes the store: candidates, or an empty list as the proof that none is left. */
  interface Probe extends Supplier<List<Candidate>> {}

  /**
   * A candidate for a claim that started at {@code claimStarted}: from the pool if it has a fresh
   * one, else from a probe that this call runs (one probe at a time per pool; the others wait for
   * it and share its result).
   *
   * @return a candidate; {@link #NONE_LEFT} when a probe that ran after {@code claimStarted} found
   *     the pool empty; null when the refill could not be had before {@code deadline}
   */
  Candidate take(Instant claimStarted, Instant deadline, Probe probe) throws InterruptedException {
    while (true) {
      Candidate candidate = pollFresh();
      if (candidate != null) {
        return candidate;
      }
      if (!provenEmptyAt.isBefore(claimStarted)) {
        return NONE_LEFT;
      }
      long wait = Duration.between(clock.instant(), deadline).toMillis();
      if (wait <= 0 || !refill.tryLock(wait, TimeUnit.MILLISECONDS)) {
        return null;
      }
      try {
        if (!queue.isEmpty() || !provenEmptyAt.isBefore(claimStarted)) {
          continue; // another claim refilled or proved it empty while this one waited
        }
        Instant probeStarted = clock.instant();
        List<Candidate> found = probe.get();
        if (found.isEmpty()) {
          provenEmptyAt = probeStarted;
          return NONE_LEFT;
        }
        queue.addAll(found);
      } finally {
        refill.unlock();
      }
    }
  }

  /** Puts back a candidate that was not used (its claim lost for another reason). */
  void giveBack(Candidate candidate) {
    queue.offer(candidate);
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
