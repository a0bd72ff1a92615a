package flashclaim.store.firestore;

import com.google.cloud.firestore.DocumentReference;
import com.google.cloud.firestore.Query;
import com.google.cloud.firestore.QueryDocumentSnapshot;
import flashclaim.campaign.Campaign;
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
import java.util.concurrent.atomic.AtomicReference;

/**
 * A naive baseline ({@code oldest-first}) for the benchmark: one transaction that takes the first
 * unassigned coupon in {@code randomFloat} order and writes the claim record. Every claim wants the
 * same coupon, so it shows what a hot spot costs. Correct (the transaction's reads lock what it
 * writes), just slow; retried until the deadline.
 */
final class OldestFirstClaimStrategy extends FirestoreClaimStrategy {
  static final String NAME = "oldest-first";
  private static final Duration TRANSACTION_TIMEOUT = Duration.ofSeconds(30);


  OldestFirstClaimStrategy(ClaimDocuments docs, Clock clock, ContentionCounters counters) {
    super(docs, clock, counters);
  }

  @Override
  public Attempt tryClaim(Campaign campaign, UserId user, int slot, Instant deadline) {
    DocumentReference claimRef = docs.claimRef(campaign, user.key(), slot);
    Query first =
        FirestoreLayout.coupons(docs.db(), campaign.id())
            .whereEqualTo(FirestoreLayout.IS_ASSIGNED, false)
            .orderBy(FirestoreLayout.RANDOM_FLOAT)
            .limit(1);
    long timeout = docs.timeout().toMillis();
    while (clock.instant().isBefore(deadline)) {
      AtomicReference<Claim> won = new AtomicReference<>();
      counters.query();
      Status.Code result =
          docs.commit(
              () ->
                  docs.db()
                      .runTransaction(
                          tx -> {
                            won.set(null);
                            List<QueryDocumentSnapshot> found =
                                tx.get(first).get(timeout, TimeUnit.MILLISECONDS).getDocuments();
                            if (found.isEmpty()) {
                              return null;
                            }
                            QueryDocumentSnapshot coupon = found.get(0);
                            Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
                            String code = coupon.getString(FirestoreLayout.CODE);
                            tx.update(
                                coupon.getReference(),
                                ClaimDocuments.assignment(claimRef.getId(), now));
                            tx.create(
                                claimRef,
                                ClaimDocuments.claimRecord(coupon.getId(), code, now));
                            won.set(new Claim(campaign.id(), new CouponCode(code), slot, now));
                            return null;
                          }),
              "run an oldest-first transaction",
              TRANSACTION_TIMEOUT);
      if (result == Status.Code.OK) {
        return won.get() == null ? new Attempt.NoneLeft() : new Attempt.Won(won.get());
      }
      if (result == Status.Code.ALREADY_EXISTS) {
        return new Attempt.SlotTaken();
      }
      counters.aborted();
    }
    return new Attempt.Contended();
  }
}
