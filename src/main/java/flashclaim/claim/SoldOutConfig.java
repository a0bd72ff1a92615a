package flashclaim.claim;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * Tunables of the sold-out fast path ({@code flashclaim.sold-out.*}), see {@link SoldOutProofs}.
 *
 * @param fastPath once this instance has proven a pool empty, answer later claims sold out after a
 *     shared read of the campaign's additions counter instead of a query of the pool; false makes
 *     every claim query the pool (for comparisons)
 * @param maxCampaigns campaigns whose proof one instance keeps; beyond it the proofs are dropped and
 *     proven again (one pool query per campaign)
 * @param maxHolders holders of proven sold-out campaigns that one instance keeps in memory, all
 *     campaigns together (8 bytes per claim record), so that a proven sold-out claim of a user who
 *     does not hold the limit answers without a store read ({@link SoldOutHolders}); a campaign
 *     with more holders than fit reads the user's holdings for each such claim
 * @param holderPageSize claim records per page when an instance reads a campaign's holders; until
 *     the read is done its claims read the user's holdings in an admission slot, and on the
 *     Firestore emulator every page scans the whole collection, so fewer, larger pages end it
 *     sooner (5,000 holders under W8's load: 5.4-7.4 s in pages of 1,000, 0.3-3.4 s in one)
 * @param counterReadInterval the least time between the starts of two reads of one campaign's
 *     additions counter: the claims that arrive meanwhile share the next read, so a sold-out storm
 *     costs at most one read per interval per instance, and a proven sold-out answer waits at most
 *     this much longer (0s: a new read as soon as the last one returned)
 * @param suspectReadInterval the least time between the starts of two reads of the counter that
 *     no claim waits for, made while the claims of a campaign come back busy because no query of
 *     its pool returned before their deadline (the pool may be empty behind a query slower than the
 *     deadline, see {@link SoldOutProofs}); such a query takes longer than a deadline, so a read
 *     every few hundred milliseconds is enough to make a proof of it
 * @param holdingsReads reads of a user's own claims that one instance makes at once, before
 *     admission, for claims of a proven empty pool while its snapshot of the holders is still being
 *     read ({@link SoldOutHoldingsReads}); 0: such claims wait for a slot and their turn
 */
@ConfigurationProperties("flashclaim.sold-out")
public record SoldOutConfig(
    @Bindable(defaultValue = "true") boolean fastPath,
    @Bindable(defaultValue = "10000") int maxCampaigns,
    @Bindable(defaultValue = "2000000") int maxHolders,
    @Bindable(defaultValue = "10000") int holderPageSize,
    @Bindable(defaultValue = "20ms") Duration counterReadInterval,
    @Bindable(defaultValue = "250ms") Duration suspectReadInterval,
    @Bindable(defaultValue = "16") int holdingsReads) {

  public SoldOutConfig {
    if (holdingsReads < 0) {
      throw new IllegalArgumentException("flashclaim.sold-out.holdings-reads must be at least 0");
    }
    if (holderPageSize < 1) {
      throw new IllegalArgumentException("flashclaim.sold-out.holder-page-size must be at least 1");
    }
    if (counterReadInterval.isNegative() || counterReadInterval.compareTo(Duration.ofSeconds(1)) > 0) {
      throw new IllegalArgumentException("flashclaim.sold-out.counter-read-interval must be between 0s and 1s");
    }
    if (suspectReadInterval.isNegative() || suspectReadInterval.compareTo(Duration.ofSeconds(10)) > 0) {
      throw new IllegalArgumentException("flashclaim.sold-out.suspect-read-interval must be between 0s and 10s");
    }
  }
}
