package flashclaim.claim;

import flashclaim.Deadline;
import flashclaim.StoreException;
import flashclaim.campaign.Campaign;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.LongAdder;

/**
 * The holdings read of a claim whose pool is proven empty while this instance's snapshot of the
 * holders ({@link SoldOutHolders}) is still being read: one read of the user's own claims, made
 * before admission, so that the user is answered sold out (or goes on, holding the limit) without
 * waiting for a slot or a turn. The fair line orders claims for coupons, and a proven empty pool
 * has none to give, so no user who clicked earlier loses anything to this answer. Without it the
 * users of a sale that has just sold out, coming back at their turns, are refused 503 for as long
 * as the snapshot takes (seconds on a loaded store) and come back again.
 *
 * <p>At most {@code flashclaim.sold-out.holdings-reads} such reads run at once per instance, on the
 * store's pool (where admitted claims make the same read; the I/O pool's few threads are left to
 * the snapshot's read and the counter's); a claim that finds them all taken goes on as before (admission, and the same read in
 * its slot). Each read is bounded by the claim's deadline.
 */
@Singleton
public class SoldOutHoldingsReads {
  private final ClaimStore store;
  private final Executor reader;
  /** One per read that may run now; none when these reads are off ({@code holdings-reads} 0). */
  private final Semaphore permits;
  private final LongAdder reads = new LongAdder();

  public SoldOutHoldingsReads(
      ClaimStore store, SoldOutConfig config, @Named("store") Executor reader) {
    this.store = store;
    this.reader = reader;
    this.permits = new Semaphore(config.holdingsReads());
  }

  /**
   * The user's claims of the campaign, counted up to its {@code perUserLimit}, read now; empty at
   * once when every read is taken (or these reads are off), and empty when the read failed or
   * the deadline passed first.
   */
  public CompletableFuture<Optional<Integer>> heldUpToLimit(
      Campaign campaign, UserId user, Deadline deadline) {
    if (deadline.passed() || !permits.tryAcquire()) {
      return CompletableFuture.completedFuture(Optional.empty());
    }
    try {
      return CompletableFuture.supplyAsync(() -> read(campaign, user, deadline), reader);
    } catch (RejectedExecutionException e) { // shutting down
      permits.release();
      return CompletableFuture.completedFuture(Optional.empty());
    }
  }

  /** Reads made so far. */
  public long reads() {
    return reads.sum();
  }

  private Optional<Integer> read(Campaign campaign, UserId user, Deadline deadline) {
    try {
      if (deadline.passed()) {
        return Optional.empty();
      }
      reads.increment();
      return Optional.of(
          Math.min(store.holdings(campaign, user, deadline).size(), campaign.perUserLimit()));
    } catch (StoreException e) {
      return Optional.empty(); // the claim goes on, and its own read in a slot reports a fault
    } finally {
      permits.release();
    }
  }
}
