package flashclaim.store.firestore;

import com.google.firestore.v1.RunAggregationQueryRequest;
import com.google.firestore.v1.RunQueryRequest;
import com.google.firestore.v1.StructuredAggregationQuery;
import com.google.firestore.v1.StructuredQuery;
import io.grpc.ClientInterceptor;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Records every query the service's Firestore client sends: plain queries, queries inside
 * transactions, and aggregation queries. {@link FirestoreFactory} installs every {@link
 * ClientInterceptor} bean on the client's channel; this one exists only in application contexts
 * that set {@value #PROPERTY}, so no other test is affected.
 */
@Singleton
@Requires(property = QueryRecorder.PROPERTY, value = "true")
public final class QueryRecorder extends SentMessages {
  public static final String PROPERTY = "test.record-queries";

  /** One query as sent. */
  public record Recorded(String rpc, String parent, StructuredQuery query, boolean inTransaction, String aggregations) {
    /** The query's shape (no values) with the RPC, e.g. {@code RunQuery coupons WHERE ...}. */
    public String shape() {
      return rpc
          + (inTransaction ? " (in transaction)" : "")
          + (aggregations.isEmpty() ? "" : " " + aggregations + " OF")
          + " "
          + IndexCoverage.shape(query);
    }
  }

  private final List<Recorded> recorded = new CopyOnWriteArrayList<>();
  private final List<String> unsupported = new CopyOnWriteArrayList<>();

  public List<Recorded> recorded() {
    return List.copyOf(recorded);
  }

  /** Plain queries of a campaign's coupons (its pool) sent so far. */
  public long poolQueries() {
    return recorded.stream()
        .filter(q -> q.rpc().equals("RunQuery"))
        .filter(q -> q.query().getFromCount() > 0)
        .filter(q -> q.query().getFrom(0).getCollectionId().equals(FirestoreLayout.COUPONS))
        .count();
  }

  /** RPCs that read by query in a way the index check does not model (listen, pipelines, ...). */
  public List<String> unsupported() {
    return List.copyOf(unsupported);
  }

  @Override
  protected void sent(Object message) {
    if (message instanceof RunQueryRequest run) {
      recorded.add(
          new Recorded(
              "RunQuery",
              run.getParent(),
              run.getStructuredQuery(),
              run.hasTransaction() || run.hasNewTransaction(),
              ""));
    } else if (message instanceof RunAggregationQueryRequest run) {
      StructuredAggregationQuery aggregation = run.getStructuredAggregationQuery();
      String aggregations =
          aggregation.getAggregationsList().stream()
              .map(a -> a.getOperatorCase().name())
              .collect(Collectors.joining(","));
      recorded.add(
          new Recorded(
              "RunAggregationQuery",
              run.getParent(),
              aggregation.getStructuredQuery(),
              run.hasTransaction() || run.hasNewTransaction(),
              aggregations));
    } else if (message != null
        && message.getClass().getPackageName().equals("com.google.firestore.v1")
        && UNSUPPORTED.matcher(message.getClass().getSimpleName()).matches()) {
      unsupported.add(message.getClass().getSimpleName());
    }
  }

  private static final Pattern UNSUPPORTED =
      Pattern.compile("(Listen|PartitionQuery|ExecutePipeline|.*Query.*|.*Pipeline.*)Request");
}
