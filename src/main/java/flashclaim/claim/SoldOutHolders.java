package flashclaim.claim;

import flashclaim.campaign.Campaign;
import flashclaim.campaign.PoolAdditions;
import io.micronaut.scheduling.TaskExecutors;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.concurrent.ExecutorService;

/**
 * Who holds a coupon of a campaign that {@link SoldOutProofs} has proven sold out, so that a
 * proven sold-out claim of a user who does not hold the limit answers without reading the store at
 * all.
 *
 * <p><b>Why a snapshot stays exact.</b> A proof (a quiet counter read {@code R0}, then a pool query
 * {@code Q} that found no unassigned coupon) is only used for a claim whose own counter read
 * {@code R1} shows that no coupon appeared since {@code R0}. Between {@code Q} and {@code R1} no
 * unassigned coupon existed, so no claim record could be written: the set of holders was the same
 * all along. The snapshot is read after {@code Q} (it is started by a claim that already had the
 * proof), so it holds every holder of {@code R1}'s moment, and maybe more when it was read after
 * {@code R1} (a superset only costs a store read). A user with fewer records in it than the limit
 * held fewer at a moment during the claim: "sold out" is the whole truth for them (G3, G4). A user
 * with the limit in it, or any user while the snapshot loads, gets the holdings read as before.
 *
 * <p>The snapshot is tied to its proof: a new proof (coupons were added and the pool emptied again)
 * loads a new one. Memory: {@link HolderSnapshots}, at most {@code flashclaim.sold-out.max-holders}
 * records; a campaign with more has no snapshot and reads the holdings.
 */
@Singleton
public class SoldOutHolders {
  private final HolderSnapshots snapshots;

  public SoldOutHolders(
      ClaimStore store, SoldOutConfig config, @Named(TaskExecutors.BLOCKING) ExecutorService loader) {
    this.snapshots =
        new HolderSnapshots("sold out", store, config.maxHolders(), config.holderPageSize(), loader);
  }

  /**
   * How many coupons of the campaign the user may hold, counted up to its {@code perUserLimit}, for
   * a claim that {@code proof} has just proven sold out: the records of the user in this instance's
   * snapshot of the holders under that proof, when it is loaded; else the limit (the user may hold
   * anything), and the snapshot starts loading when there is none for the proof.
   */
  public int heldUpToLimit(Campaign campaign, UserId user, PoolAdditions proof) {
    return snapshots.heldUpToLimit(campaign, user, proof, Duration.ZERO);
  }

  /**
   * Whether this instance's snapshot of the campaign's holders under {@code proof} is loaded, so
   * that {@link #heldUpToLimit} counts a user's records rather than answering the limit.
   */
  public boolean loaded(Campaign campaign, PoolAdditions proof) {
    return snapshots.loaded(campaign.id(), proof);
  }

  /**
   * Snapshots this instance has read and put in use (each one read of all the campaign's claim
   * records).
   */
  public long loads() {
    return snapshots.loads();
  }
}
