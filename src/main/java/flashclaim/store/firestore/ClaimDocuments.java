package flashclaim.store.firestore;

import static flashclaim.store.firestore.FirestoreCalls.await;

import com.google.api.core.ApiFuture;
import com.google.cloud.firestore.DocumentReference;
import com.google.cloud.firestore.DocumentSnapshot;
import com.google.cloud.firestore.FieldPath;
import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.Query;
import com.google.cloud.firestore.QueryDocumentSnapshot;
import flashclaim.Deadline;
import flashclaim.campaign.Campaign;
import flashclaim.campaign.CouponCode;
import flashclaim.claim.Claim;
import flashclaim.claim.UserId;
import io.grpc.Status;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What every Firestore claim strategy shares: reading a user's claim records, and the two writes
 * of a claim (the coupon's assignment and the claim record) that must commit together.
 */
final class ClaimDocuments {
  private final Firestore db;
  private final Duration timeout;

  ClaimDocuments(Firestore db, Duration timeout) {
    this.db = db;
    this.timeout = timeout;
  }

  Firestore db() {
    return db;
  }

  Duration timeout() {
    return timeout;
  }

  /** The timeout of a call of a claim that starts now: the call timeout, cut to the deadline. */
  Duration timeout(Deadline deadline) {
    return deadline.timeout(timeout);
  }

  /** The user's claims, read by id (one document per slot), ordered by slot. */
  List<Claim> holdings(Campaign campaign, UserId user, Deadline deadline) {
    String userKey = user.key();
    DocumentReference[] refs = new DocumentReference[campaign.perUserLimit()];
    for (int slot = 0; slot < refs.length; slot++) {
      refs[slot] = claimRef(campaign, userKey, slot);
    }
    List<DocumentSnapshot> docs =
        await(() -> db.getAll(refs), timeout(deadline), "read the user's claims");
    List<Claim> claims = new ArrayList<>();
    for (DocumentSnapshot doc : docs) {
      if (doc.exists()) {
        claims.add(
            new Claim(
                campaign.id(),
                new CouponCode(doc.getString(FirestoreLayout.CODE)),
                FirestoreLayout.slotOf(doc.getId()),
                FirestoreCalls.instant(doc.getTimestamp(FirestoreLayout.CLAIMED_AT))));
      }
    }
    return claims;
  }

  /** See {@link flashclaim.claim.ClaimStore#forEachHolder}: document ids only, in id order. */
  boolean forEachHolder(Campaign campaign, int pageSize, int max, Consumer<String> userKey) {
    Query ids =
        FirestoreLayout.claims(db, campaign.id())
            .select(FieldPath.documentId())
            .orderBy(FieldPath.documentId())
            .limit(pageSize);
    int seen = 0;
    DocumentSnapshot last = null;
    while (true) {
      Query page = last == null ? ids : ids.startAfter(last);
      List<QueryDocumentSnapshot> docs =
          await(page::get, timeout, "read a page of the campaign's claim ids").getDocuments();
      for (QueryDocumentSnapshot doc : docs) {
        if (++seen > max) {
          return false;
        }
        userKey.accept(FirestoreLayout.userKeyOf(doc.getId()));
      }
      if (docs.size() < pageSize) {
        return true;
      }
      last = docs.get(docs.size() - 1);
    }
  }

  DocumentReference claimRef(Campaign campaign, String userKey, int slot) {
    return FirestoreLayout.claims(db, campaign.id())
        .document(FirestoreLayout.claimId(userKey, slot));
  }

  /** The fields that mark a coupon as the holder's of the claim record {@code claimId}. */
  static Map<String, Object> assignment(String claimId, Instant at) {
    Map<String, Object> fields = new HashMap<>();
    fields.put(FirestoreLayout.IS_ASSIGNED, true);
    fields.put(FirestoreLayout.ASSIGNED_TO, claimId);
    fields.put(FirestoreLayout.ASSIGNED_AT, FirestoreCalls.timestamp(at));
    return fields;
  }

  /** The claim record that names the coupon. */
  static Map<String, Object> claimRecord(String couponId, String code, Instant at) {
    Map<String, Object> fields = new HashMap<>();
    fields.put(FirestoreLayout.COUPON_ID, couponId);
    fields.put(FirestoreLayout.CODE, code);
    fields.put(FirestoreLayout.CLAIMED_AT, FirestoreCalls.timestamp(at));
    return fields;
  }

  /**
   * Waits for a commit whose failure may be an expected outcome.
   *
   * @return {@code OK} on success, or the code of an expected failure (a failed precondition, a
   *     document that exists, an aborted transaction); anything else throws {@link flashclaim.StoreException}.
   *     Expected failures cost no exception on the caller's side: under contention they are the
   *     common case.
   */
  Status.Code commit(Supplier<? extends ApiFuture<?>> start, String what, Duration timeout) {
    return FirestoreCalls.attempt(start, timeout, what).code();
  }
}
