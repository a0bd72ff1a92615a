package flashclaim.store.firestore;

import static flashclaim.store.firestore.FirestoreCalls.await;

import com.google.cloud.firestore.CollectionReference;
import com.google.cloud.firestore.DocumentReference;
import com.google.cloud.firestore.Precondition;
import com.google.cloud.firestore.Query;
import com.google.cloud.firestore.QueryDocumentSnapshot;
import com.google.cloud.firestore.WriteBatch;
import flashclaim.campaign.Campaign;
import flashclaim.campaign.CouponCode;
import flashclaim.claim.Claim;
import flashclaim.claim.ClaimStore;
import flashclaim.claim.UserId;
import io.grpc.Status;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The default claim strategy ({@code optimistic}): no query inside a transaction, no transaction at
 * all.
 *
 * <ol>
 *   <li>Probe: read up to {@code candidates} unassigned coupons ordered by {@code randomFloat} from a
 *       random point of [0, 1), outside any transaction. Concurrent claimers start at different
 *       points, so they rarely want the same coupon.
 *   <li>Commit, for one candidate at a time in random order, a batch of two writes: the coupon's
 *       assignment guarded by the precondition "the coupon was last updated at the time this probe
 *       saw it", and the create of the user's claim record for the slot. A batch is atomic: both
 *       apply or neither (G5). If anyone assigned the coupon after the probe, its update time moved
 *       and the batch fails at once with FAILED_PRECONDITION (G1): a lost race costs one round
 *       trip and no lock wait. If the slot's record exists, another claim of the same user won
 *       (ALREADY_EXISTS, G2).
 *   <li>Sold out only on proof: when the probe from the random point finds nothing, a second probe
 *       over the whole range runs; that single query seeing no unassigned coupon is what {@link
 *       ClaimStore.Attempt.NoneLeft} means (G3).
 * </ol>
 *
 * Losing every candidate probes again until the deadline, then gives up as {@code Contended} (G6).
 */
final class OptimisticClaimStrategy implements ClaimStore {
  static final String NAME = "optimistic";

  private final ClaimDocuments docs;
  private final int candidates;
  private final Clock clock;
  private final ContentionCounters counters;

  OptimisticClaimStrategy(
      ClaimDocuments docs, int candidates, Clock clock, ContentionCounters counters) {
    this.docs = docs;
    this.candidates = Math.max(1, candidates);
    this.clock = clock;
    this.counters = counters;
  }

  @Override
  public List<Claim> holdings(Campaign campaign, UserId user) {
    return docs.holdings(campaign, user);
  }

  @Override
  public Attempt tryClaim(Campaign campaign, UserId user, int slot, Instant deadline) {
    String userKey = user.key();
    DocumentReference claimRef = docs.claimRef(campaign, userKey, slot);
    CollectionReference coupons = FirestoreLayout.coupons(docs.db(), campaign.id());
    while (clock.instant().isBefore(deadline)) {
      List<QueryDocumentSnapshot> found = probe(coupons);
      if (found.isEmpty()) {
        return new Attempt.NoneLeft();
      }
      for (QueryDocumentSnapshot candidate : found) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS); // Firestore keeps micros
        if (!now.isBefore(deadline)) {
          break;
        }
        String code = candidate.getString(FirestoreLayout.CODE);
        WriteBatch batch = docs.db().batch();
        batch.update(
            candidate.getReference(),
            ClaimDocuments.assignment(userKey, claimRef.getId(), now),
            Precondition.updatedAt(candidate.getUpdateTime()));
        batch.create(
            claimRef, ClaimDocuments.claimRecord(user, slot, candidate.getId(), code, now));
        Status.Code result = docs.commit(batch::commit, "commit a claim");
        switch (result) {
          case OK:
            return new Attempt.Won(new Claim(campaign.id(), new CouponCode(code), slot, now));
          case ALREADY_EXISTS:
            return new Attempt.SlotTaken();
          default:
            counters.lostRace(); // FAILED_PRECONDITION: someone took this coupon after the probe
        }
      }
    }
    return new Attempt.Contended();
  }

  /** Unassigned coupons from a random point on, else from the start; empty proves none is left. */
  private List<QueryDocumentSnapshot> probe(CollectionReference coupons) {
    Query unassigned =
        coupons.whereEqualTo(FirestoreLayout.IS_ASSIGNED, false).orderBy(FirestoreLayout.RANDOM_FLOAT);
    double from = ThreadLocalRandom.current().nextDouble();
    counters.query();
    List<QueryDocumentSnapshot> found =
        await(
                () -> unassigned.startAt(from).limit(candidates).get(),
                docs.timeout(),
                "find unassigned coupons")
            .getDocuments();
    if (found.isEmpty()) {
      counters.query();
      found =
          await(() -> unassigned.limit(candidates).get(), docs.timeout(), "find unassigned coupons")
              .getDocuments();
    }
    List<QueryDocumentSnapshot> shuffled = new ArrayList<>(found);
    Collections.shuffle(shuffled, ThreadLocalRandom.current());
    return shuffled;
  }
}
