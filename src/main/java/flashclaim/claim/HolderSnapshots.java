package flashclaim.claim;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import flashclaim.campaign.Campaign;
import flashclaim.campaign.CampaignId;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.LongStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Snapshots of who holds coupons of a campaign, each tied to a basis (the fact that keeps it
 * exact, an object compared by {@code equals}), read in the background once per basis; the
 * mechanism of {@link SoldOutHolders} and {@link ClosedHolders}, which say what the basis is and
 * why a snapshot under it stays exact.
 *
 * <p>A snapshot keeps 64 bits of the user key of each claim record, sorted (so a user with several
 * records appears several times): 8 bytes per record, at most {@code maxHolders} in all campaigns
 * together (Caffeine, weighed by records); a campaign with more records than that has no snapshot,
 * and its users may hold anything. Records are never removed, so a snapshot read after a moment
 * holds every record of that moment, and a count it shows is never below the count at that moment.
 */
final class HolderSnapshots {
  private static final Logger LOG = LoggerFactory.getLogger(HolderSnapshots.class);

  private final String what;
  private final ClaimStore store;
  private final int maxHolders;
  private final int pageSize;
  private final Executor loader;
  private final Cache<CampaignId, Snapshot> snapshots;
  private final LongAdder loads = new LongAdder();

  /**
   * @param what the snapshots' purpose, for the log
   * @param loader runs the reads (blocking store calls; at most one in flight per campaign)
   */
  HolderSnapshots(String what, ClaimStore store, int maxHolders, int pageSize, Executor loader) {
    this.what = what;
    this.store = store;
    this.maxHolders = maxHolders;
    this.pageSize = pageSize;
    this.loader = loader;
    this.snapshots =
        Caffeine.newBuilder()
            .maximumWeight(Math.max(1, maxHolders))
            .weigher((CampaignId id, Snapshot snapshot) -> snapshot.weight())
            .build();
  }

  /**
   * How many records of the user this instance's snapshot under {@code basis} shows, counted up to
   * the campaign's {@code perUserLimit}: the limit itself when there is no loaded snapshot under
   * that basis (the user may hold anything). When there is none for the basis, plans one read of
   * the holders, {@code delay} from now.
   */
  int heldUpToLimit(Campaign campaign, UserId user, Object basis, Duration delay) {
    Snapshot snapshot = snapshots.getIfPresent(campaign.id());
    if (snapshot == null || !snapshot.basis.equals(basis)) {
      load(campaign, basis, snapshot, delay);
      return campaign.perUserLimit();
    }
    return snapshot.heldUpTo(keyBits(user.key()), campaign.perUserLimit());
  }

  /** Whether a snapshot under {@code basis} is loaded and holds the campaign's records. */
  boolean loaded(CampaignId campaign, Object basis) {
    Snapshot snapshot = snapshots.getIfPresent(campaign);
    return snapshot != null && snapshot.basis.equals(basis) && snapshot.keys != null;
  }

  /** Snapshots read and put in use (each one read of all the campaign's claim records). */
  long loads() {
    return loads.sum();
  }

  private void load(Campaign campaign, Object basis, Snapshot replaced, Duration delay) {
    Snapshot loading = new Snapshot(basis, null);
    boolean mine =
        replaced == null
            ? snapshots.asMap().putIfAbsent(campaign.id(), loading) == null
            : snapshots.asMap().replace(campaign.id(), replaced, loading);
    if (!mine) {
      return; // another claim planned it
    }
    Executor when =
        delay.isZero()
            ? loader
            : CompletableFuture.delayedExecutor(delay.toNanos(), TimeUnit.NANOSECONDS, loader);
    long planned = System.nanoTime();
    try {
      when.execute(() -> read(campaign, loading, planned));
    } catch (RuntimeException e) {
      snapshots.asMap().remove(campaign.id(), loading); // refused when shutting down
    }
  }

  private void read(Campaign campaign, Snapshot loading, long planned) {
    if (snapshots.asMap().get(campaign.id()) != loading) {
      return; // replaced or dropped while it waited
    }
    long started = System.nanoTime();
    LongStream.Builder keys = LongStream.builder();
    try {
      boolean complete =
          store.forEachHolder(campaign, pageSize, maxHolders, userKey -> keys.add(keyBits(userKey)));
      Snapshot read = new Snapshot(loading.basis, complete ? keys.build().sorted().toArray() : null);
      snapshots.asMap().replace(campaign.id(), loading, read);
      loads.increment(); // once in use
      long done = System.nanoTime();
      LOG.info(
          "read the holders of campaign {} ({}): {} in {} ms, {} ms after it was planned",
          campaign.id().value(),
          what,
          complete ? read.keys.length + " records" : "more than " + maxHolders + " records, none kept",
          TimeUnit.NANOSECONDS.toMillis(done - started),
          TimeUnit.NANOSECONDS.toMillis(done - planned));
    } catch (RuntimeException e) {
      LOG.warn(
          "reading the holders of campaign {} ({}) failed; its claims read holdings: {}",
          campaign.id().value(),
          what,
          e.toString());
      snapshots.asMap().remove(campaign.id(), loading); // the next claim plans it again
    }
  }

  /**
   * How often {@code key} occurs in {@code sorted}, counted up to {@code limit}: looks at no more
   * than {@code limit} of its occurrences.
   */
  static int countUpTo(long[] sorted, long key, int limit) {
    int at = Arrays.binarySearch(sorted, key);
    if (at < 0) {
      return 0;
    }
    int first = at;
    int last = at;
    while (last - first + 1 < limit && first > 0 && sorted[first - 1] == key) {
      first--;
    }
    while (last - first + 1 < limit && last + 1 < sorted.length && sorted[last + 1] == key) {
      last++;
    }
    return Math.min(last - first + 1, limit);
  }

  /** The first 64 bits of a user key (64 hex characters of SHA-256). */
  static long keyBits(String userKey) {
    return Long.parseUnsignedLong(userKey, 0, 16, 16);
  }

  /**
   * The records under one basis, their keys sorted: null keys while loading, or when there were
   * too many. Compared by identity, so that a load replaces only its own placeholder.
   */
  private static final class Snapshot {
    private final Object basis;
    private final long[] keys;

    Snapshot(Object basis, long[] keys) {
      this.basis = basis;
      this.keys = keys;
    }

    int heldUpTo(long key, int limit) {
      return keys == null ? limit : countUpTo(keys, key, limit);
    }

    int weight() {
      return keys == null ? 1 : keys.length + 1;
    }
  }
}
