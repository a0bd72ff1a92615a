package flashclaim.store.firestore;

import static flashclaim.store.firestore.FirestoreCalls.await;

import com.google.api.gax.grpc.GrpcCallContext;
import com.google.api.gax.rpc.ServerStream;
import com.google.cloud.Timestamp;
import com.google.cloud.firestore.DocumentSnapshot;
import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.Query;
import com.google.cloud.firestore.v1.FirestoreClient;
import com.google.cloud.firestore.v1.FirestoreSettings;
import com.google.firestore.v1.Document;
import com.google.firestore.v1.RunQueryRequest;
import com.google.firestore.v1.RunQueryResponse;
import com.google.firestore.v1.Value;
import flashclaim.StoreException;
import flashclaim.campaign.CampaignId;
import io.micronaut.context.annotation.Requires;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.time.Duration;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.Function;

/**
 * Long streamed reads of a campaign from one moment of the store (the audit, the export): queries
 * run at one read time, so what they return together is a snapshot, in which a claim's batch
 * (coupon and claim record) is whole or absent. A query is read in pages of at most {@code
 * pageSize} documents, each page continuing after the last document of the one before at the same
 * read time, and each streamed a document at a time (gRPC flow control): memory holds one document
 * per query, not a page.
 *
 * <p>Reads at a read time go through the generated client ({@link FirestoreClient}), created on the
 * first such read on the same channel settings and credentials as the service's client: the
 * high-level client collects a query's documents into one list, and streams only without a read
 * time. Real Firestore serves reads at a read time up to an hour old (seven days with
 * point-in-time recovery), which bounds how long one snapshot read may take.
 */
@Singleton
@Requires(bean = Firestore.class)
final class ReadTimeQueries {
  private final Firestore db;
  private final Duration callTimeout;
  private FirestoreClient client; // guarded by this; created on the first read

  ReadTimeQueries(Firestore db, FirestoreConfig config) {
    this.db = db;
    this.callTimeout = config.callTimeout();
  }

  @PreDestroy
  synchronized void close() {
    if (client != null) {
      client.close();
    }
  }

  /**
   * The campaign document, read now: its read time is the moment a snapshot read starts from, and
   * whether it exists says whether there is a campaign to read.
   */
  DocumentSnapshot campaign(CampaignId campaign, String what) {
    return await(() -> FirestoreLayout.campaign(db, campaign).get(), callTimeout, what);
  }

  /**
   * The documents of {@code first} at {@code readAt}, page by page: a page is {@code first}, or
   * {@code after} applied to the last document read, limited to {@code pageSize}; the read ends
   * with the first page that is not full.
   *
   * @param rowTimeout the longest to wait for the next document of a page (the first one waits for
   *     the query to start answering)
   * @param what what the read is for, as failures name it
   */
  <R> Pages<R> pages(
      Query first,
      Function<Document, Query> after,
      Function<Document, R> row,
      Timestamp readAt,
      int pageSize,
      Duration rowTimeout,
      String what) {
    return new Pages<>(client(), first, after, row, readAt, pageSize, rowTimeout, what);
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
        throw new StoreException(
            "Firestore: could not open the reader at a read time: " + e.getMessage(), e);
      }
    }
    return client;
  }

  /** The id of a document (the last segment of its name). */
  static String id(Document doc) {
    return doc.getName().substring(doc.getName().lastIndexOf('/') + 1);
  }

  /** A string field of a document; null when absent or not a string. */
  static String string(Document doc, String field) {
    Value value = doc.getFieldsOrDefault(field, null);
    return value == null || value.getValueTypeCase() != Value.ValueTypeCase.STRING_VALUE
        ? null
        : value.getStringValue();
  }

  /**
   * A query read page by page at one read time, each page one streamed query of at most {@code
   * pageSize} documents; the next page starts after the last document of the one before. Not safe
   * for concurrent use; {@link #cancel} ends it early.
   */
  static final class Pages<R> implements Iterator<R> {
    private final FirestoreClient client;
    private final Query first;
    private final Function<Document, Query> after;
    private final Function<Document, R> row;
    private final Timestamp readAt;
    private final int pageSize;
    private final Duration rowTimeout;
    private final String what;
    private ServerStream<RunQueryResponse> stream;
    private Iterator<RunQueryResponse> responses;
    private Document next;
    private Document last;
    private int inPage;
    private long pages;
    private boolean done;

    private Pages(
        FirestoreClient client,
        Query first,
        Function<Document, Query> after,
        Function<Document, R> row,
        Timestamp readAt,
        int pageSize,
        Duration rowTimeout,
        String what) {
      this.client = client;
      this.first = first;
      this.after = after;
      this.row = row;
      this.readAt = readAt;
      this.pageSize = pageSize;
      this.rowTimeout = rowTimeout;
      this.what = what;
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
            done = inPage < pageSize;
          }
        } catch (RuntimeException e) {
          cancel();
          throw new StoreException(
              "Firestore could not read a page to " + what + ": " + e.getMessage(), e);
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

    /** Queries started so far, each of at most a page. */
    long pages() {
      return pages;
    }

    private void start(Query query) {
      RunQueryRequest request =
          query.limit(pageSize).toProto().toBuilder().setReadTime(readAt.toProto()).build();
      pages++;
      inPage = 0;
      stream =
          client
              .runQueryCallable()
              .call(
                  request,
                  GrpcCallContext.createDefault().withStreamWaitTimeoutDuration(rowTimeout));
      responses = stream.iterator();
    }

    /** Stops reading: the query in progress is cancelled, and no other starts. */
    void cancel() {
      if (stream != null && responses != null) {
        stream.cancel();
      }
      done = true;
      responses = null;
    }
  }
}
