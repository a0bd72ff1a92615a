package flashclaim.store.firestore;

import static flashclaim.store.firestore.FirestoreCalls.await;

import com.google.api.gax.grpc.GrpcCallContext;
import com.google.api.gax.rpc.ServerStream;
import com.google.cloud.Timestamp;
import com.google.cloud.firestore.FieldPath;
import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.Query;
import com.google.cloud.firestore.v1.FirestoreClient;
import com.google.cloud.firestore.v1.FirestoreSettings;
import com.google.firestore.v1.Document;
import com.google.firestore.v1.RunQueryRequest;
import com.google.firestore.v1.RunQueryResponse;
import com.google.firestore.v1.Value;
import flashclaim.StoreException;
import flashclaim.audit.AuditConfig;
import flashclaim.audit.AuditStore;
import flashclaim.campaign.CampaignId;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Requires;
import jakarta.annotation.PreDestroy;
import java.io.IOException;
import java.time.Instant;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.Function;

/**
 * The audit's read on Firestore. Every query runs at one read time (the read time of the campaign
 * document, read first), so the view is a snapshot: a claim's batch (coupon and claim record)
 * is in it whole or not at all. Queries return at most {@code page-size} documents, continue after
 * the last document of the previous page at the same read time, and are streamed a document at a
 * time (gRPC flow control), so memory holds one document per sequence, not a page.
 *
 * <p>Claim records are read ordered by {@code couponId}, so a record without that field (which no
 * claim writes) is not in the view.
 *
 * <p>The streaming read goes through the generated client ({@link FirestoreClient}) on the same
 * channel settings and credentials as the service's client: the high-level client collects a
 * query's documents into one list, and streams only without a read time.
 */
@Context // created at startup, so that a bad flashclaim.audit configuration refuses to start
@Requires(bean = Firestore.class)
final class FirestoreAuditStore implements AuditStore {
  private final Firestore db;
  private final FirestoreConfig config;
  private final AuditConfig audit;
  private FirestoreClient client; // guarded by this; created on the first audit

  FirestoreAuditStore(Firestore db, FirestoreConfig config, AuditConfig audit) {
    this.db = db;
    this.config = config;
    this.audit = audit;
  }

  @PreDestroy
  synchronized void close() {
    if (client != null) {
      client.close();
    }
  }

  @Override
  public <T> T read(CampaignId campaign, Function<View, T> reader) {
    Timestamp readAt =
        await(
                () -> FirestoreLayout.campaign(db, campaign).get(),
                config.callTimeout(),
                "read the campaign for the audit")
            .getReadTime();
    FirestoreView view = new FirestoreView(client(), campaign, readAt);
    try {
      return reader.apply(view);
    } finally {
      view.close();
    }
  }

  private synchronized FirestoreClient client() {
    if (client == null) {
      try {
        client =
            FirestoreClient.create(
                FirestoreSettings.newBuilder()
                    .setCredentialsProvider(db.getOptions().getCredentialsProvider())
                    .setTransportChannelProvider(db.getOptions().getTransportChannelProvider())
                    .build());
      } catch (IOException e) {
        throw new StoreException("Firestore: could not open the audit's reader: " + e.getMessage(), e);
      }
    }
    return client;
  }

  private final class FirestoreView implements View {
    private final FirestoreClient client;
    private final CampaignId campaign;
    private final Timestamp readAt;
    private Pages<?> coupons;
    private Pages<?> claims;
    private long pages;

    FirestoreView(FirestoreClient client, CampaignId campaign, Timestamp readAt) {
      this.client = client;
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
      Pages<CouponRow> pages =
          new Pages<>(
              byId,
              last -> byId.startAfter(id(last)),
              doc -> {
                String claimId = string(doc, FirestoreLayout.ASSIGNED_TO);
                Value isAssigned =
                    doc.getFieldsOrDefault(FirestoreLayout.IS_ASSIGNED, Value.getDefaultInstance());
                Value randomFloat =
                    doc.getFieldsOrDefault(
                        FirestoreLayout.RANDOM_FLOAT, Value.getDefaultInstance());
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
      coupons = pages;
      return pages;
    }

    @Override
    public Iterator<ClaimRow> claimsByCoupon() {
      Query byCoupon =
          FirestoreLayout.claims(db, campaign)
              .select(FirestoreLayout.COUPON_ID, FirestoreLayout.CODE)
              .orderBy(FirestoreLayout.COUPON_ID)
              .orderBy(FieldPath.documentId());
      Pages<ClaimRow> pages =
          new Pages<>(
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
      claims = pages;
      return pages;
    }

    @Override
    public synchronized long pages() {
      return pages;
    }

    private synchronized void pageStarted() {
      pages++;
    }

    void close() {
      if (coupons != null) {
        coupons.cancel();
      }
      if (claims != null) {
        claims.cancel();
      }
    }

    /**
     * A query read page by page at the view's read time, each page one streamed query of at most
     * {@code page-size} documents; the next page starts after the last document of the one before.
     */
    private final class Pages<R> implements Iterator<R> {
      private final Query first;
      private final Function<Document, Query> after;
      private final Function<Document, R> row;
      private ServerStream<RunQueryResponse> stream;
      private Iterator<RunQueryResponse> responses;
      private Document next;
      private Document last;
      private int inPage;
      private boolean done;

      Pages(Query first, Function<Document, Query> after, Function<Document, R> row) {
        this.first = first;
        this.after = after;
        this.row = row;
      }

      @Override
      public boolean hasNext() {
        while (next == null && !done) {
          if (responses == null) {
            start(last == null ? first : after.apply(last));
          }
          try {
            if (responses.hasNext()) {
              RunQueryResponse response = responses.next();
              if (response.hasDocument()) {
                next = response.getDocument();
                inPage++;
              }
            } else {
              responses = null;
              done = inPage < audit.pageSize();
            }
          } catch (RuntimeException e) {
            cancel();
            throw new StoreException(
                "Firestore could not read a page for the audit: " + e.getMessage(), e);
          }
        }
        return next != null;
      }

      @Override
      public R next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        last = next;
        next = null;
        return row.apply(last);
      }

      private void start(Query query) {
        RunQueryRequest request =
            query.limit(audit.pageSize()).toProto().toBuilder().setReadTime(readAt.toProto()).build();
        pageStarted();
        inPage = 0;
        stream =
            client
                .runQueryCallable()
                .call(
                    request,
                    GrpcCallContext.createDefault()
                        .withStreamWaitTimeoutDuration(audit.rowTimeout()));
        responses = stream.iterator();
      }

      void cancel() {
        if (stream != null && responses != null) {
          stream.cancel();
        }
        done = true;
        responses = null;
      }
    }
  }

  private static String id(Document doc) {
    return doc.getName().substring(doc.getName().lastIndexOf('/') + 1);
  }

  private static String string(Document doc, String field) {
    Value value = doc.getFieldsOrDefault(field, null);
    return value == null || value.getValueTypeCase() != Value.ValueTypeCase.STRING_VALUE
        ? null
        : value.getStringValue();
  }
}
