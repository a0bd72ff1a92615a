package flashclaim.store.firestore;

import com.google.api.core.ApiFuture;
import com.google.cloud.firestore.DocumentReference;
import com.google.cloud.firestore.DocumentSnapshot;
import com.google.cloud.firestore.Transaction;
import flashclaim.Deadline;
import flashclaim.campaign.Campaign;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CouponCode;
import flashclaim.claim.Claim;
import flashclaim.claim.ClaimStore;
import flashclaim.claim.UserId;
import io.grpc.Status;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * What the Firestore claim strategies share: the documents, the clock, the contention counters,
 * how a user's holdings are read, and for the transactional baselines how a claim transaction
 * runs. A strategy is only its {@link #tryClaim}.
 */
abstract class FirestoreClaimStrategy implements ClaimStore {
  /**
   * The most a claim transaction may take when its deadline allows it: the client's default of 5
   * attempts with up to 2 s of lock wait each on the emulator, plus margin.
   */
  private static final Duration TRANSACTION_TIMEOUT = Duration.ofSeconds(30);

  protected final ClaimDocuments docs;
  protected final Clock clock;
  protected final ContentionCounters counters;

  FirestoreClaimStrategy(ClaimDocuments docs, Clock clock, ContentionCounters counters) {
    this.docs = docs;
    this.clock = clock;
    this.counters = counters;
  }

  @Override
  public List<Claim> holdings(Campaign campaign, UserId user, Deadline deadline) {
    return docs.holdings(campaign, user, deadline);
  }

  /**
   * None, unless the strategy queries the pool apart from its claims: a query that belongs to one
   * claim ends with that claim's deadline, and a result it found is the claim's.
   */
  @Override
  public Instant foundEmptyFrom(CampaignId campaign) {
    return null;
  }

  /** False, for the same reason: such a strategy's queries tell nothing beyond their claim. */
  @Override
  public boolean runningOut(CampaignId campaign) {
    return false;
  }

  @Override
  public boolean forEachHolder(
      Campaign campaign, int pageSize, int max, Consumer<String> userKey) {
    return docs.forEachHolder(campaign, pageSize, max, userKey);
  }

  /** What a claim transaction came to: OK or an expected failure code, and the claim if it made one. */
  record TransactionOutcome(Status.Code code, Claim claim) {}

  /**
   * Runs {@code body} as one Firestore transaction with the client's default attempts, waiting for
   * it at most until {@code deadline}; the body returns the claim it wrote, or null when it found
   * nothing to assign. An attempt whose reads end after the deadline fails instead of committing,
   * and is rolled back. A transaction the deadline cuts short throws {@link
   * flashclaim.StoreException} and is left to end by itself, committed entirely or not at all (G5).
   */
  TransactionOutcome runClaimTransaction(
      Transaction.Function<Claim> body, String what, Deadline deadline) {
    AtomicReference<Claim> won = new AtomicReference<>();
    counters.query();
    Status.Code code =
        docs.commit(
            () ->
                FirestoreCalls.detached(
                    docs.db()
                        .runTransaction(
                            tx -> {
                              won.set(null); // a retried attempt starts afresh
                              Claim claim = body.updateCallback(tx);
                              if (deadline.passed()) {
                                throw new TimeoutException("the deadline passed before the commit");
                              }
                              won.set(claim);
                              return null;
                            })),
            what,
            deadline.timeout(TRANSACTION_TIMEOUT));
    return new TransactionOutcome(code, won.get());
  }

  /**
   * Inside a transaction: waits for one of its reads at most what is left of the deadline (at most
   * the call timeout).
   */
  <T> T read(ApiFuture<T> read, Deadline deadline) throws Exception {
    return read.get(docs.timeout(deadline).toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Inside a transaction: assigns the coupon to the claim record {@code claimRef} and writes it. */
  Claim assign(
      Transaction tx,
      DocumentSnapshot coupon,
      DocumentReference claimRef,
      Campaign campaign,
      int slot) {
    Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS); // Firestore keeps micros
    String code = coupon.getString(FirestoreLayout.CODE);
    tx.update(coupon.getReference(), ClaimDocuments.assignment(claimRef.getId(), now));
    tx.create(claimRef, ClaimDocuments.claimRecord(coupon.getId(), code, now));
    return new Claim(campaign.id(), new CouponCode(code), slot, now);
  }
}
