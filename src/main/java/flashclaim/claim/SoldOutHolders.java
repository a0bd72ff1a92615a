package flashclaim.claim;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import flashclaim.campaign.Campaign;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.PoolAdditions;
import io.micronaut.scheduling.TaskExecutors;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.LongStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who holds a coupon of a campaign that {@link SoldOutProofs} has proven sold out, so that a
 * proven sold-out claim of a user who holds nothing answers without reading the store at all.
 *
 * <p><b>Why a snapshot stays exact.</b> A proof (a quiet counter read {@code R0}, then a pool query
 * {@code Q} that found no unassigned coupon) is only used for a claim whose own counter read
 * {@code R1} shows that no coupon appeared since {@code R0}. Between {@code Q} and {@code R1} no
 * unassigned coupon existed, so no claim record could be written: the set of holders was the same
 * all along. The snapshot is read after {@code Q} (it is started by a claim that already had the
 * proof), so it holds every holder of {@code R1}'s moment, and maybe more when it was read after
 * {@code R1} (a superset only costs a store read). A user absent from it held nothing at a moment
 * during the claim: "sold out" is the whole truth for them (G3, G4). A user present in it, or any
 * user while the snapshot loads, gets the holdings read as before.
 *
 * <p>The snapshot is tied to its proof: a new proof (coupons were added and the pool emptied again)
 * loads a new one. It keeps 64 bits of each holder's key, sorted: 8 bytes per holder, at most
 * {@code flashclaim.sold-out.max-holders} in all campaigns together (Caffeine, weighed by holders);
 * a campaign with more holders than that has no snapshot and reads the holdings.
 */
@Singleton
public class SoldOutHolders {
  private static final Logger LOG = LoggerFactory.getLogger(SoldOutHolders.class);

  private final ClaimStore store;
  private final SoldOutConfig config;
  private final ExecutorService loader;
  private final Cache<CampaignId, Snapshot> snapshots;
  private final LongAdder loads = new LongAdder();

  public SoldOutHolders(
      ClaimStore store, SoldOutConfig config, @Named(TaskExecutors.BLOCKING) ExecutorService loader) {
    this.store = store;
    this.config = config;
    this.loader = loader;
    this.snapshots =
        Caffeine.newBuilder()
            .maximumWeight(Math.max(1, config.maxHolders()))
            .weigher((CampaignId id, Snapshot snapshot) -> snapshot.weight())
            .build();
  }

  /**
   * Whether the user may hold a coupon of the campaign, for a claim that {@code proof} has just
   * proven sold out: false only when this instance's snapshot of the holders under that proof is
   * loaded and lacks the user. Starts loading the snapshot when there is none for the proof.
   */
  public boolean mayHold(Campaign campaign, UserId user, PoolAdditions proof) {
    Snapshot snapshot = snapshots.getIfPresent(campaign.id());
    if (snapshot == null || !snapshot.proof().equals(proof)) {
      load(campaign, proof, snapshot);
      return true;
    }
    return snapshot.mayHold(keyBits(user.key()));
  }

  /**
   * Snapshots this instance has read and put in use (each one read of all the campaign's claim
   * records).
   */
  public long loads() {
    return loads.sum();
  }

  private void load(Campaign campaign, PoolAdditions proof, Snapshot replaced) {
    Snapshot loading = new Snapshot(proof, null);
    boolean mine =
        replaced == null
            ? snapshots.asMap().putIfAbsent(campaign.id(), loading) == null
            : snapshots.asMap().replace(campaign.id(), replaced, loading);
    if (!mine) {
      return; // another claim started it
    }
    try {
      loader.execute(() -> read(campaign, loading));
    } catch (RuntimeException e) {
      snapshots.asMap().remove(campaign.id(), loading); // refused when shutting down
    }
  }

  private void read(Campaign campaign, Snapshot loading) {
    LongStream.Builder keys = LongStream.builder();
    try {
      boolean complete =
          store.forEachHolder(
              campaign,
              config.holderPageSize(),
              config.maxHolders(),
              userKey -> keys.add(keyBits(userKey)));
      Snapshot read =
          new Snapshot(loading.proof(), complete ? keys.build().sorted().toArray() : null);
      snapshots.asMap().replace(campaign.id(), loading, read);
      loads.increment(); // once in use
    } catch (RuntimeException e) {
      LOG.warn(
          "reading the holders of campaign {} failed; its claims read holdings: {}",
          campaign.id().value(),
          e.toString());
      snapshots.asMap().remove(campaign.id(), loading); // the next proven claim tries again
    }
  }

  /** The first 64 bits of a user key (64 hex characters of SHA-256). */
  static long keyBits(String userKey) {
    return Long.parseUnsignedLong(userKey, 0, 16, 16);
  }

  /**
   * The holders under one proof, their keys sorted: null keys while loading, or when there were
   * too many. Compared by identity, so that a load replaces only its own placeholder.
   */
  private static final class Snapshot {
    private final PoolAdditions proof;
    private final long[] keys;

    Snapshot(PoolAdditions proof, long[] keys) {
      this.proof = proof;
      this.keys = keys;
    }

    PoolAdditions proof() {
      return proof;
    }

    boolean mayHold(long key) {
      return keys == null || Arrays.binarySearch(keys, key) >= 0;
    }

    int weight() {
      return keys == null ? 1 : keys.length + 1;
    }
  }
}
