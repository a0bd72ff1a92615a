package flashclaim.store.firestore;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counts of the store operations a claim strategy spent beyond the one that won: lost races
 * (precondition failures), aborted transactions, and queries. Read by the benchmark and metrics.
 */
public final class ContentionCounters {
  private final LongAdder lostRaces = new LongAdder();
  private final LongAdder aborts = new LongAdder();
  private final LongAdder queries = new LongAdder();

  void lostRace() {
    lostRaces.increment();
  }

  void aborted() {
    aborts.increment();
  }

  void query() {
    queries.increment();
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
}
