package flashclaim.store.firestore;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counts of the store operations a claim strategy spent beyond the one that won: lost races
 * (precondition failures), aborted transactions, and queries; and the waits of claims that found
 * no candidate ready for a probe of the pool, with their time. Read by the benchmark and metrics.
 */
public final class ContentionCounters {
  private final LongAdder lostRaces = new LongAdder();
  private final LongAdder aborts = new LongAdder();
  private final LongAdder queries = new LongAdder();
  private final LongAdder candidateWaits = new LongAdder();
  private final LongAdder candidateWaitNanos = new LongAdder();

  void lostRace() {
    lostRaces.increment();
  }

  void aborted() {
    aborts.increment();
  }

  void query() {
    queries.increment();
  }

  /** A claim found no fresh candidate and waited {@code nanos} for a probe of the pool. */
  void waitedForCandidate(long nanos) {
    candidateWaits.increment();
    candidateWaitNanos.add(nanos);
  }

  public long lostRaces() {
    return lostRaces.sum();
  }

  public long aborts() {
    return aborts.sum();
  }

  public long queries() {
    return queries.sum();
  }

  /** Waits of claims that found no fresh candidate for a probe of the pool. */
  public long candidateWaits() {
    return candidateWaits.sum();
  }

  /** The seconds of those waits, together. */
  public double candidateWaitSeconds() {
    return candidateWaitNanos.sum() / 1e9;
  }
}
