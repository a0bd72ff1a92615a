package flashclaim.store.firestore;

import static flashclaim.store.firestore.ReadTimeQueries.id;
import static flashclaim.store.firestore.ReadTimeQueries.string;

import com.google.cloud.Timestamp;
import com.google.cloud.firestore.FieldPath;
import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.Query;
import com.google.firestore.v1.Document;
import com.google.firestore.v1.Value;
import flashclaim.audit.AuditConfig;
import flashclaim.audit.AuditStore;
import flashclaim.campaign.CampaignId;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Requires;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Function;

/**
 * The audit's read on Firestore: both sequences are queries of {@link ReadTimeQueries} at the read
 * time of the campaign document, read first, so the view is a snapshot. Claim records are read
 * ordered by {@code couponId}, so a record without that field (which no claim writes) is not in
 * the view.
 */
@Context // created at startup, so that a bad flashclaim.audit configuration refuses to start
@Requires(bean = Firestore.class)
final class FirestoreAuditStore implements AuditStore {
  private static final String WHAT = "read the campaign for the audit";

  private final Firestore db;
  private final ReadTimeQueries queries;
  private final AuditConfig audit;

  FirestoreAuditStore(Firestore db, ReadTimeQueries queries, AuditConfig audit) {
    this.db = db;
    this.queries = queries;
    this.audit = audit;
  }

  @Override
  public <T> T read(CampaignId campaign, Function<View, T> reader) {
    Timestamp readAt = queries.campaign(campaign, WHAT).getReadTime();
    FirestoreView view = new FirestoreView(campaign, readAt);
    try {
      return reader.apply(view);
    } finally {
      view.close();
    }
  }

  private final class FirestoreView implements View {
    private final CampaignId campaign;
    private final Timestamp readAt;
    private final List<ReadTimeQueries.Pages<?>> opened = new ArrayList<>();

    FirestoreView(CampaignId campaign, Timestamp readAt) {
      this.campaign = campaign;
      this.readAt = readAt;
    }

    @Override
    public Instant readAt() {
      return FirestoreCalls.instant(readAt);
    }

    @Override
    public Iterator<CouponRow> coupons() {
      Query byId =
          FirestoreLayout.coupons(db, campaign)
              .select(
                  FirestoreLayout.CODE,
                  FirestoreLayout.IS_ASSIGNED,
                  FirestoreLayout.ASSIGNED_TO,
                  FirestoreLayout.RANDOM_FLOAT)
              .orderBy(FieldPath.documentId());
      return open(
          byId,
          last -> byId.startAfter(id(last)),
          doc -> {
            String claimId = string(doc, FirestoreLayout.ASSIGNED_TO);
            Value isAssigned =
                doc.getFieldsOrDefault(FirestoreLayout.IS_ASSIGNED, Value.getDefaultInstance());
            Value randomFloat =
                doc.getFieldsOrDefault(FirestoreLayout.RANDOM_FLOAT, Value.getDefaultInstance());
            return new CouponRow(
                id(doc),
                string(doc, FirestoreLayout.CODE),
                isAssigned.getBooleanValue(),
                claimId == null ? null : FirestoreLayout.userKeyOf(claimId),
                claimId,
                // the probe: isAssigned == false, ordered by randomFloat
                isAssigned.hasBooleanValue()
                    && !isAssigned.getBooleanValue()
                    && randomFloat.hasDoubleValue());
          });
    }

    @Override
    public Iterator<ClaimRow> claimsByCoupon() {
      Query byCoupon =
          FirestoreLayout.claims(db, campaign)
              .select(FirestoreLayout.COUPON_ID, FirestoreLayout.CODE)
              .orderBy(FirestoreLayout.COUPON_ID)
              .orderBy(FieldPath.documentId());
      return open(
          byCoupon,
          last ->
              byCoupon.startAfter(
                  string(last, FirestoreLayout.COUPON_ID),
                  FirestoreLayout.claims(db, campaign).document(id(last))),
          doc ->
              new ClaimRow(
                  id(doc),
                  FirestoreLayout.userKeyOf(id(doc)),
                  FirestoreLayout.slotOf(id(doc)),
                  string(doc, FirestoreLayout.COUPON_ID),
                  string(doc, FirestoreLayout.CODE)));
    }

    @Override
    public long pages() {
      return opened.stream().mapToLong(ReadTimeQueries.Pages::pages).sum();
    }

    private <R> Iterator<R> open(
        Query first, Function<Document, Query> after, Function<Document, R> row) {
      ReadTimeQueries.Pages<R> pages =
          queries.pages(
              first, after, row, readAt, audit.pageSize(), audit.rowTimeout(), "audit the campaign");
      opened.add(pages);
      return pages;
    }

    void close() {
      opened.forEach(ReadTimeQueries.Pages::cancel);
    }
  }
}
