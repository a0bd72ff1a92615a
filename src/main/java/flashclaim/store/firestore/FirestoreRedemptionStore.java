package flashclaim.store.firestore;


import com.google.cloud.Timestamp;
import com.google.cloud.firestore.CollectionReference;
import com.google.cloud.firestore.DocumentReference;
import com.google.cloud.firestore.DocumentSnapshot;
import com.google.cloud.firestore.FieldValue;
import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.Precondition;
import com.google.cloud.firestore.QueryDocumentSnapshot;
import com.google.cloud.firestore.WriteResult;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CouponCode;
import flashclaim.redemption.OrderId;
import flashclaim.redemption.RedeemableCoupon;
import flashclaim.redemption.RedemptionState;
import flashclaim.redemption.RedemptionStore;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Redemption fields on the coupon documents. A coupon is read by id (its id is derived from the
 * code); a code without a campaign is looked up with one collection-group query over every
 * campaign's coupons, which needs the collection-group index on {@code code} declared in {@code
 * firestore.indexes.json}. A change is an update of the redemption fields alone, with the
 * precondition that the coupon was last updated when it was read.
 */
@Singleton
@Requires(bean = Firestore.class)
final class FirestoreRedemptionStore implements RedemptionStore {
  private final Firestore db;
  private final Duration timeout;

  FirestoreRedemptionStore(Firestore db, FirestoreConfig config) {
    this.db = db;
    this.timeout = config.callTimeout();
  }

  @Override
  public Optional<RedeemableCoupon> find(CampaignId campaign, CouponCode code) {
    DocumentSnapshot doc =
        FirestoreCalls.read(() -> ref(campaign, code).get(), timeout, "read a coupon");
    if (!doc.exists()) {
      return Optional.empty();
    }
    String order = doc.getString(FirestoreLayout.ORDER_ID);
    return Optional.of(
        new RedeemableCoupon(
            campaign,
            code,
            stateOf(doc),
            order == null ? null : new OrderId(order),
            doc.getUpdateTime()));
  }

  @Override
  public List<CampaignId> campaignsWithCode(CouponCode code, int limit) {
    List<QueryDocumentSnapshot> docs =
        FirestoreCalls.read(
                () ->
                    db.collectionGroup(FirestoreLayout.COUPONS)
                        .whereEqualTo(FirestoreLayout.CODE, code.value())
                        .limit(limit)
                        .get(),
                timeout,
                "look up a coupon code")
            .getDocuments();
    List<CampaignId> campaigns = new ArrayList<>();
    for (QueryDocumentSnapshot doc : docs) {
      DocumentReference campaign = doc.getReference().getParent().getParent();
      if (campaign != null
          && campaign.getParent().getId().equals(FirestoreLayout.CAMPAIGNS)
          && campaign.getParent().getParent() == null) {
        campaigns.add(new CampaignId(campaign.getId()));
      }
    }
    return campaigns;
  }

  @Override
  public Optional<RedeemableCoupon> transition(
      RedeemableCoupon seen, RedemptionState next, OrderId order, Instant at) {
    Map<String, Object> fields = new HashMap<>();
    fields.put(FirestoreLayout.REDEMPTION_STATE, next.wireName());
    fields.put(FirestoreLayout.ORDER_ID, order.value());
    if (next == RedemptionState.REDEEMED) {
      fields.put(FirestoreLayout.REDEEMED_AT, FirestoreCalls.timestamp(at));
      fields.put(FirestoreLayout.CANCELLED_AT, FieldValue.delete());
    } else {
      fields.put(FirestoreLayout.CANCELLED_AT, FirestoreCalls.timestamp(at));
    }
    FirestoreCalls.Attempt<WriteResult> written =
        FirestoreCalls.attempt(
            () ->
                ref(seen.campaignId(), seen.code())
                    .update(fields, Precondition.updatedAt((Timestamp) seen.version())),
            timeout,
            "change a coupon's redemption");
    return written.ok()
        ? Optional.of(seen.after(next, order, written.value().getUpdateTime()))
        : Optional.empty();
  }

  private DocumentReference ref(CampaignId campaign, CouponCode code) {
    CollectionReference coupons = FirestoreLayout.coupons(db, campaign);
    return coupons.document(FirestoreLayout.couponId(code));
  }

  private static RedemptionState stateOf(DocumentSnapshot doc) {
    if (!Boolean.TRUE.equals(doc.getBoolean(FirestoreLayout.IS_ASSIGNED))) {
      return RedemptionState.UNASSIGNED;
    }
    return RedemptionState.REDEEMED.wireName().equals(doc.getString(FirestoreLayout.REDEMPTION_STATE))
        ? RedemptionState.REDEEMED
        : RedemptionState.ASSIGNED;
  }
}
