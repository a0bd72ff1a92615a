package flashclaim.results;

import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CampaignStore;
import flashclaim.campaign.CouponCode;
import flashclaim.claim.UserId;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A campaign's results for operators: the export of its claims, a user's claims and a code's
 * holder. Each answers "no campaign" for an unknown campaign. At most {@code
 * flashclaim.results.max-exports} exports are open at once on this instance: each holds a store
 * connection or query for as long as its client downloads.
 */
@Singleton
public class ResultsService {
  private final CampaignStore campaigns;
  private final ResultsStore store;
  private final int maxExports;
  private final Semaphore exports;

  public ResultsService(CampaignStore campaigns, ResultsStore store, ResultsConfig config) {
    this.campaigns = campaigns;
    this.store = store;
    this.maxExports = config.maxExports();
    this.exports = new Semaphore(maxExports);
  }

  /** What opening an export came to. */
  public sealed interface ExportOutcome {
    /** The export, open: the caller closes it. */
    record Opened(ClaimExport export) implements ExportOutcome {}

    /** No campaign has the id. */
    record NoCampaign() implements ExportOutcome {}

    /** {@code flashclaim.results.max-exports} exports are open on this instance already. */
    record TooMany() implements ExportOutcome {}
  }

  /** Opens the export of the campaign's claims. */
  public ExportOutcome export(CampaignId campaign) {
    if (!exports.tryAcquire()) {
      return new ExportOutcome.TooMany();
    }
    boolean opened = false;
    try {
      if (campaigns.find(campaign).isEmpty()) {
        return new ExportOutcome.NoCampaign();
      }
      ExportOutcome outcome = new ExportOutcome.Opened(counted(store.export(campaign)));
      opened = true;
      return outcome;
    } finally {
      if (!opened) {
        exports.release();
      }
    }
  }

  /** The export, which gives its place back when closed, once. */
  private ClaimExport counted(ClaimExport export) {
    AtomicBoolean open = new AtomicBoolean(true);
    return ClaimExport.of(
        export.readAt(),
        export,
        () -> {
          if (open.compareAndSet(true, false)) {
            try {
              export.close();
            } finally {
              exports.release();
            }
          }
        });
  }

  /** Exports open on this instance now. */
  public int openExports() {
    return maxExports - exports.availablePermits();
  }

  /** The coupons the user holds in the campaign; empty when there is no such campaign. */
  public Optional<List<CouponRecord>> claimsOf(CampaignId campaign, UserId user) {
    return campaigns.find(campaign).map(c -> store.claimsOf(campaign, user));
  }

  /** What looking up a code came to. */
  public sealed interface CouponLookup {
    /** The coupon. */
    record Found(CouponRecord coupon) implements CouponLookup {}

    /** No campaign has the id. */
    record NoCampaign() implements CouponLookup {}

    /** The campaign has no coupon with the code. */
    record NoCoupon() implements CouponLookup {}
  }

  /** The coupon with the code in the campaign, in any state. */
  public CouponLookup coupon(CampaignId campaign, CouponCode code) {
    if (campaigns.find(campaign).isEmpty()) {
      return new CouponLookup.NoCampaign();
    }
    return store
        .coupon(campaign, code)
        .<CouponLookup>map(CouponLookup.Found::new)
        .orElseGet(CouponLookup.NoCoupon::new);
  }
}
