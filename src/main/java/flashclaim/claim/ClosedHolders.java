package flashclaim.claim;

import flashclaim.campaign.Campaign;
import flashclaim.campaign.CampaignCacheConfig;
import io.micronaut.scheduling.TaskExecutors;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.concurrent.ExecutorService;

/**
 * Who holds the limit of a campaign that is paused or has ended, so that a claim of anyone else is
 * refused (403) without reading the store, while a holder's claim reads their claims and gets the
 * newest back (200, G4): a pause or an end stops new coupons, not holders seeing theirs. A user
 * with some records, below the limit, is refused too, but such a refusal is marked ({@link
 * ClaimService.Refusal#holdsCoupons}): a repeat of the claim that gave a coupon gets its first
 * answer again.
 *
 * <p><b>Why a snapshot stays exact.</b> A snapshot is tied to the closure it was read under: the
 * campaign's version and why it is closed (paused, or ended). Once an instance sees a closure, it
 * waits {@code flashclaim.claim.campaign-cache-ttl + flashclaim.claim.deadline +
 * flashclaim.closed-holders.settle-margin} before reading the holders. The pause was written before
 * this instance saw it, so every instance refuses new claims within the cache's TTL of that moment
 * (an end: at {@code endsAt} by each instance's clock, the skew covered by the margin); a claim
 * that had passed the check before commits within its deadline (a commit cut short lands within the
 * margin). So no claim record is written after the read starts, while the closure lasts, and the
 * snapshot holds every holder. Any change of the campaign moves its version: a resume, or a new
 * window, and then another closure reads the holders again.
 *
 * <p>Until the snapshot is loaded (the wait, then one paged read of the campaign's claim records),
 * every claim of the closed campaign reads the user's claims; after it, only those of users with
 * the limit in it do. A campaign that has not started yet is refused without either: nobody can
 * hold a coupon of it. Memory: {@link HolderSnapshots}, at most {@code
 * flashclaim.closed-holders.max-holders} records.
 */
@Singleton
public class ClosedHolders {
  private final HolderSnapshots snapshots;
  private final Duration settle;

  public ClosedHolders(
      ClaimStore store,
      ClosedHoldersConfig config,
      CampaignCacheConfig cache,
      ClaimConfig claims,
      @Named(TaskExecutors.BLOCKING) ExecutorService loader) {
    this.snapshots =
        new HolderSnapshots("closed", store, config.maxHolders(), config.holderPageSize(), loader);
    this.settle = cache.campaignCacheTtl().plus(claims.deadline()).plus(config.settleMargin());
  }

  /**
   * How many coupons of the campaign the user may hold, counted up to its {@code perUserLimit},
   * when it is refused with {@code refusal} ({@link ClaimOutcome.Paused} or {@link
   * ClaimOutcome.NotOpen}): 0 for a campaign that has not started; the records of the user in this
   * instance's snapshot under the same closure, when it is loaded; else the limit (the user may
   * hold anything), and the snapshot is planned when there is none for the closure.
   */
  public int heldUpToLimit(Campaign campaign, UserId user, ClaimOutcome refusal) {
    if (refusal instanceof ClaimOutcome.NotOpen notOpen
        && notOpen.window() == Campaign.Window.NOT_STARTED) {
      return 0;
    }
    Closure closure = new Closure(campaign.version(), refusal.kind());
    return snapshots.heldUpToLimit(campaign, user, closure, settle);
  }

  /** Snapshots this instance has read and put in use. */
  public long loads() {
    return snapshots.loads();
  }

  /** Why a campaign is closed, at one version of it: the basis of a snapshot. */
  private record Closure(long version, ClaimOutcome.Kind kind) {}
}
