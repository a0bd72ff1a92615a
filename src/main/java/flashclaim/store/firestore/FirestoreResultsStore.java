package flashclaim.store.firestore;

import static flashclaim.store.firestore.FirestoreCalls.await;
import static flashclaim.store.firestore.ReadTimeQueries.id;
import static flashclaim.store.firestore.ReadTimeQueries.string;

import com.google.cloud.Timestamp;
import com.google.cloud.firestore.CollectionReference;
import com.google.cloud.firestore.DocumentSnapshot;
import com.google.cloud.firestore.FieldPath;
import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.Query;
import com.google.firestore.v1.Document;
import com.google.firestore.v1.Value;
import flashclaim.audit.AuditConfig;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CouponCode;
import flashclaim.claim.UserId;
import flashclaim.results.ClaimExport;
import flashclaim.results.CouponRecord;
import flashclaim.results.ResultsStore;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The results on Firestore, read from the coupon documents alone: an assigned coupon holds its
 * holder's claim record id ({@code assignedTo}), when it was claimed ({@code assignedAt}, the
 * claimedAt of that record: one batch writes both) and its redemption, so one query answers what
 * would otherwise take a claim record and a coupon read per claim. The claims of a campaign are its
 * coupons with an {@code assignedTo}, ordered by it: the order of the claim record ids (user key,
 * then {@code -slot}). The query is served by the automatic single-field index on {@code
 * assignedTo}. The export runs it with {@link ReadTimeQueries} at the read time of the campaign
 * document, the audit's snapshot read; a user's claims are one query over the range of their claim
 * record ids, a code one document read by id.
 */
@Singleton
@Requires(bean = Firestore.class)
final class FirestoreResultsStore implements ResultsStore {
  private static final String WHAT = "read the claims for the export";
  /** Just after the separator of a claim record id's slot ({@code -}): the end of a user's ids. */
  private static final String AFTER_SLOTS = ".";

  private final Firestore db;
  private final ReadTimeQueries queries;
  private final AuditConfig audit;
  private final Duration timeout;

  FirestoreResultsStore(
      Firestore db, ReadTimeQueries queries, AuditConfig audit, FirestoreConfig config) {
    this.db = db;
    this.queries = queries;
    this.audit = audit;
    this.timeout = config.callTimeout();
  }

  @Override
  public ClaimExport export(CampaignId campaign) {
    Timestamp readAt = queries.campaign(campaign, WHAT).getReadTime();
    CollectionReference coupons = FirestoreLayout.coupons(db, campaign);
    Query held = claimed(coupons).orderBy(FieldPath.documentId());
    ReadTimeQueries.Pages<CouponRecord> pages =
        queries.pages(
            held,
            last ->
                held.startAfter(
                    string(last, FirestoreLayout.ASSIGNED_TO), coupons.document(id(last))),
            FirestoreResultsStore::record,
            readAt,
            audit.pageSize(),
            audit.rowTimeout(),
            WHAT);
    return ClaimExport.of(FirestoreCalls.instant(readAt), pages, pages::cancel);
  }

  @Override
  public List<CouponRecord> claimsOf(CampaignId campaign, UserId user) {
    String firstId = FirestoreLayout.claimId(user.key(), 0);
    Query mine =
        claimed(FirestoreLayout.coupons(db, campaign))
            .whereGreaterThanOrEqualTo(FirestoreLayout.ASSIGNED_TO, firstId)
            .whereLessThan(FirestoreLayout.ASSIGNED_TO, user.key() + AFTER_SLOTS);
    return await(mine::get, timeout, "read a user's claims").getDocuments().stream()
        .map(FirestoreResultsStore::record)
        .toList();
  }

  @Override
  public Optional<CouponRecord> coupon(CampaignId campaign, CouponCode code) {
    DocumentSnapshot doc =
        await(
            () ->
                FirestoreLayout.coupons(db, campaign)
                    .document(FirestoreLayout.couponId(code))
                    .get(),
            timeout,
            "read a coupon");
    return doc.exists() ? Optional.of(record(doc)) : Optional.empty();
  }

  /** The assigned coupons, with the fields of a record, ordered by their claim record id. */
  private static Query claimed(CollectionReference coupons) {
    return coupons
        .select(
            FirestoreLayout.CODE,
            FirestoreLayout.ASSIGNED_TO,
            FirestoreLayout.ASSIGNED_AT,
            FirestoreLayout.REDEMPTION_STATE,
            FirestoreLayout.ORDER_ID)
        .whereGreaterThan(FirestoreLayout.ASSIGNED_TO, "")
        .orderBy(FirestoreLayout.ASSIGNED_TO);
  }

  private static CouponRecord record(Document doc) {
    String claimId = string(doc, FirestoreLayout.ASSIGNED_TO);
    Value claimedAt = doc.getFieldsOrDefault(FirestoreLayout.ASSIGNED_AT, null);
    return CouponRecord.of(
        string(doc, FirestoreLayout.CODE),
        claimId == null ? null : FirestoreLayout.userKeyOf(claimId),
        claimedAt == null || !claimedAt.hasTimestampValue()
            ? null
            : Instant.ofEpochSecond(
                claimedAt.getTimestampValue().getSeconds(), claimedAt.getTimestampValue().getNanos()),
        string(doc, FirestoreLayout.REDEMPTION_STATE),
        string(doc, FirestoreLayout.ORDER_ID));
  }

  private static CouponRecord record(DocumentSnapshot doc) {
    String claimId = doc.getString(FirestoreLayout.ASSIGNED_TO);
    return CouponRecord.of(
        doc.getString(FirestoreLayout.CODE),
        claimId == null ? null : FirestoreLayout.userKeyOf(claimId),
        FirestoreCalls.instant(doc.getTimestamp(FirestoreLayout.ASSIGNED_AT)),
        doc.getString(FirestoreLayout.REDEMPTION_STATE),
        doc.getString(FirestoreLayout.ORDER_ID));
  }
}
