package flashclaim.store.firestore;

import com.google.cloud.firestore.DocumentReference;
import com.google.cloud.firestore.Query;
import com.google.cloud.firestore.QueryDocumentSnapshot;
import flashclaim.Deadline;
import flashclaim.campaign.Campaign;
import flashclaim.claim.UserId;
import io.grpc.Status;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.List;

/**
 * A naive baseline ({@code oldest-first}) for the benchmark, not part of the service: one
 * transaction that takes the first unassigned coupon in {@code randomFloat} order and writes the
 * claim record. Every claim wants the same coupon, so it shows what a hot spot costs. Correct (the
 * transaction's reads lock what it writes), just slow; retried until the deadline.
 */
public final class OldestFirstClaimStrategy extends FirestoreClaimStrategy {
  public static final String NAME = "oldest-first";

  OldestFirstClaimStrategy(ClaimDocuments docs, Clock clock, ContentionCounters counters) {
    super(docs, clock, counters);
  }

  @Override
  public Attempt tryClaim(Campaign campaign, UserId user, int slot, Deadline deadline) {
    DocumentReference claimRef = docs.claimRef(campaign, user.key(), slot);
    Query first =
        FirestoreLayout.coupons(docs.db(), campaign.id())
            .whereEqualTo(FirestoreLayout.IS_ASSIGNED, false)
            .orderBy(FirestoreLayout.RANDOM_FLOAT)
            .limit(1);
    while (!deadline.passed()) {
      TransactionOutcome result =
          runClaimTransaction(
              tx -> {
                List<QueryDocumentSnapshot> found = read(tx.get(first), deadline).getDocuments();
                return found.isEmpty() ? null : assign(tx, found.get(0), claimRef, campaign, slot);
              },
              "run an oldest-first transaction",
              deadline);
      if (result.code() == Status.Code.OK) {
        return result.claim() == null ? new Attempt.NoneLeft() : new Attempt.Won(result.claim());
      }
      if (result.code() == Status.Code.ALREADY_EXISTS) {
        return new Attempt.SlotTaken();
      }
      counters.aborted();
    }
    return new Attempt.Contended();
  }

  /** Makes {@code flashclaim.claim.strategy=oldest-first} valid where the test classes are. */
  @Singleton
  static final class Added implements FirestoreClaimStoreFactory.AddedStrategy {
    @Override
    public String name() {
      return NAME;
    }

    @Override
    public FirestoreClaimStrategy create(
        ClaimDocuments docs, Clock clock, ContentionCounters counters) {
      return new OldestFirstClaimStrategy(docs, clock, counters);
    }
  }
}
