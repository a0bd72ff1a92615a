package flashclaim.bench;

import com.google.firestore.v1.BatchGetDocumentsResponse;
import com.google.firestore.v1.RunAggregationQueryResponse;
import com.google.firestore.v1.RunQueryRequest;
import com.google.firestore.v1.RunQueryResponse;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts what the service's Firestore client reads, as production Firestore bills it: a document
 * returned by a query or a lookup is one read (a query that returns nothing and an aggregation
 * count one each), and the queries sent. On the emulator a query also scans its whole collection,
 * which production does not; the benchmark reports that scan separately from these reads.
 */
@Singleton
@Requires(property = ReadCounter.PROPERTY, value = "true")
public final class ReadCounter implements ClientInterceptor {
  public static final String PROPERTY = "bench.count-reads";

  private final LongAdder reads = new LongAdder();
  private final LongAdder queries = new LongAdder();

  public long reads() {
    return reads.sum();
  }

  public long queries() {
    return queries.sum();
  }

  @Override
  public <ReqT, RespT> ClientCall<ReqT, RespT> interceptCall(
      MethodDescriptor<ReqT, RespT> method, CallOptions options, Channel next) {
    return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
      private boolean query;
      private boolean returned;

      @Override
      public void sendMessage(ReqT message) {
        if (message instanceof RunQueryRequest) {
          query = true;
          queries.increment();
        }
        super.sendMessage(message);
      }

      @Override
      public void start(Listener<RespT> listener, Metadata headers) {
        super.start(
            new ForwardingClientCallListener.SimpleForwardingClientCallListener<>(listener) {
              @Override
              public void onMessage(RespT message) {
                if (message instanceof RunQueryResponse r && r.hasDocument()
                    || message instanceof BatchGetDocumentsResponse b && (b.hasFound() || b.hasMissing())
                    || message instanceof RunAggregationQueryResponse a && a.hasResult()) {
                  reads.increment();
                  returned = true;
                }
                super.onMessage(message);
              }

              @Override
              public void onClose(io.grpc.Status status, Metadata trailers) {
                if (query && !returned) {
                  reads.increment(); // a query that finds nothing is billed one read
                }
                super.onClose(status, trailers);
              }
            },
            headers);
      }
    };
  }
}
