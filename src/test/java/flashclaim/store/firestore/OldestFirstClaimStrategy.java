package flashclaim.store.firestore;

import com.google.cloud.firestore.DocumentReference;
import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.Query;
import com.google.cloud.firestore.QueryDocumentSnapshot;
import flashclaim.Deadline;
import flashclaim.campaign.Campaign;
import flashclaim.claim.ClaimStore;
import flashclaim.claim.UserId;
import io.grpc.Status;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.context.annotation.Requires;
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

  /**
   * Puts this strategy in place of the service's choice where the test classes are, for {@code
   * flashclaim.firestore.claim.strategy=oldest-first}: the service itself knows only its own.
   */
  @Factory
  static final class Chosen {
    @Context
    @Replaces(bean = ClaimStore.class, factory = FirestoreClaimStoreFactory.class)
    @Requires(property = "flashclaim.firestore.claim.strategy", value = NAME)
    ClaimStore oldestFirst(
        Firestore db, FirestoreConfig firestore, Clock clock, ContentionCounters counters) {
      return new OldestFirstClaimStrategy(
          new ClaimDocuments(db, firestore.callTimeout()), clock, counters);
    }
  }
}
