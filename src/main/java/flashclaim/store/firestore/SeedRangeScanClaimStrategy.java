package flashclaim.store.firestore;

import com.google.cloud.firestore.CollectionReference;
import com.google.cloud.firestore.DocumentReference;
import com.google.cloud.firestore.DocumentSnapshot;
import com.google.cloud.firestore.Query;
import com.google.cloud.firestore.QueryDocumentSnapshot;
import com.google.cloud.firestore.Transaction;
import flashclaim.Deadline;
import flashclaim.campaign.Campaign;
import flashclaim.claim.Claim;
import flashclaim.claim.UserId;
import io.grpc.Status;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The original range-scan design ({@code seed}), kept as the benchmark's baseline. It splits [0, 1)
 * into 10 ranges and visits them in random order; in each it runs one Firestore transaction (the
 * client's default of 5 attempts) that queries up to 5 unassigned coupons of the range ordered by
 * {@code randomFloat}, re-reads the first candidate and falls back to the others, then assigns the
 * coupon and writes the claim record. Contention moves it to the next range; when every range is
 * exhausted it answers "none found", even if the ranges failed only because of contention: that is
 * the design's false sold-out, which the benchmark counts. Before all that it reads the user's
 * claim records ("does the user already hold one?"), outside the transaction.
 *
 * <p>The one addition: it stops between ranges once the deadline has passed, and waits for no read
 * or transaction past it, so that even the baseline cannot hold a request without bound (G6).
 */
final class SeedRangeScanClaimStrategy extends FirestoreClaimStrategy {
  static final String NAME = "seed";
  private static final int RANGES = 10;
  private static final int CANDIDATES = 5;


  SeedRangeScanClaimStrategy(ClaimDocuments docs, Clock clock, ContentionCounters counters) {
    super(docs, clock, counters);
  }

  @Override
  public Attempt tryClaim(Campaign campaign, UserId user, int slot, Deadline deadline) {
    // The original's first step: "does the user already hold one?", outside any transaction.
    if (docs.holdings(campaign, user, deadline).stream().anyMatch(claim -> claim.slot() == slot)) {
      return new Attempt.SlotTaken();
    }
    String userKey = user.key();
    DocumentReference claimRef = docs.claimRef(campaign, userKey, slot);
    CollectionReference coupons = FirestoreLayout.coupons(docs.db(), campaign.id());
    List<Integer> ranges = new ArrayList<>();
    for (int i = 0; i < RANGES; i++) {
      ranges.add(i);
    }
    Collections.shuffle(ranges, ThreadLocalRandom.current());
    for (int range : ranges) {
      if (deadline.passed()) {
        return new Attempt.Contended();
      }
      Query candidates =
          coupons
              .whereEqualTo(FirestoreLayout.IS_ASSIGNED, false)
              .whereGreaterThanOrEqualTo(FirestoreLayout.RANDOM_FLOAT, range / (double) RANGES)
              .whereLessThan(FirestoreLayout.RANDOM_FLOAT, (range + 1) / (double) RANGES)
              .orderBy(FirestoreLayout.RANDOM_FLOAT)
              .limit(CANDIDATES);
      TransactionOutcome result =
          runClaimTransaction(
              tx -> assignInRange(tx, candidates, campaign, slot, claimRef, deadline),
              "run a range-scan transaction",
              deadline);
      if (result.code() == Status.Code.ALREADY_EXISTS) {
        return new Attempt.SlotTaken();
      }
      if (result.code() != Status.Code.OK) {
        counters.aborted(); // contention: on to the next range
      } else if (result.claim() != null) {
        return new Attempt.Won(result.claim());
      }
    }
    return new Attempt.NoneLeft();
  }

  private Claim assignInRange(
      Transaction tx,
      Query candidates,
      Campaign campaign,
      int slot,
      DocumentReference claimRef,
      Deadline deadline)
      throws Exception {
    List<QueryDocumentSnapshot> found = read(tx.get(candidates), deadline).getDocuments();
    for (QueryDocumentSnapshot candidate : found) {
      DocumentSnapshot fresh = read(tx.get(candidate.getReference()), deadline);
      if (fresh.exists() && Boolean.FALSE.equals(fresh.getBoolean(FirestoreLayout.IS_ASSIGNED))) {
        return assign(tx, fresh, claimRef, campaign, slot);
      }
    }
    return null;
  }
}
