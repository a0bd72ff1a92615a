package flashclaim.http.body;

import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.ServerHttpRequest;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.body.ByteBody;
import io.micronaut.http.filter.FilterContinuation;
import flashclaim.http.Callers;
import flashclaim.http.FilterOrder;
import flashclaim.http.FilterPaths;
import flashclaim.http.HttpConfig;
import flashclaim.http.problem.ProblemType;
import io.micronaut.http.server.netty.NettyHttpRequest;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;

/**
 * Bounds request bodies before anything buffers them (G6). It runs right after authentication, so
 * it knows the caller, and before every filter or route that reads a body.
 *
 * <ul>
 *   <li>Each route has a limit ({@link BodyConfig}): the admin routes and the webhook route, which
 *       are marked {@link TakesBody}, and every other route, which takes no body and ignores a
 *       small one (as does a request that matches no route). A declared {@code Content-Length}
 *       above it is refused with 413 before a byte is read.
 *   <li>Callers other than admins on admin routes share one byte budget: a request first reserves
 *       its declared length, or the route's limit when the length is not declared (chunked); what
 *       does not fit is refused with 503 and Retry-After, nothing read. The reservation is returned
 *       when the response leaves.
 *   <li>Then the body is read to its end as it streams in ({@link BodyCount}), so that the
 *       framework holds at most the limit: past it, 413; slower than {@code read-timeout}, 408.
 *       Only a complete body within its limit reaches the route.
 * </ul>
 *
 * <p>Routes are marked {@link TakesBody}; an unmarked route, or a request that matches none,
 * has the default limit. An admin's file upload ({@link TakesBody.Limit#FILE}) is the exception:
 * past the check of its declared length it goes to its route unread, which streams it ({@link
 * StreamedBody}).
 *
 * <p>What stays outside it: the bytes the framework reads on a connection before any filter runs
 * (the first read of the request, and a window of 64 KB), so at most that much per connection. A
 * connection whose refused body goes on arriving is closed shortly after the answer ({@link
 * RefusedBodyFilter}).
 */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
final class BodyLimitFilter implements Ordered {
  private final BodyConfig config;
  private final HttpConfig http;
  private final Semaphore budget;

  BodyLimitFilter(BodyConfig config, HttpConfig http) {
    this.config = config;
    this.http = http;
    this.budget = new Semaphore(config.sharedBudget());
  }

  @Override
  public int getOrder() {
    return FilterOrder.BODY_LIMIT;
  }

  /** Bytes of the shared budget not reserved now. */
  int budgetAvailable() {
    return budget.availablePermits();
  }

  @RequestFilter
  Publisher<MutableHttpResponse<?>> limit(
      HttpRequest<?> request, FilterContinuation<Publisher<MutableHttpResponse<?>>> chain) {
    if (!(request instanceof ServerHttpRequest<?> server)) {
      return chain.proceed();
    }
    ByteBody body = server.byteBody();
    OptionalLong declared = body.expectedLength();
    if (declared.isPresent() && declared.getAsLong() == 0) {
      return chain.proceed();
    }
    String path = request.getPath();
    Optional<TakesBody.Limit> marked =
        FilterPaths.routeMarked(request, TakesBody.class)
            .flatMap(r -> r.getAnnotationMetadata().enumValue(TakesBody.class, TakesBody.Limit.class));
    boolean file = marked.equals(Optional.of(TakesBody.Limit.FILE));
    boolean admin =
        (file || marked.equals(Optional.of(TakesBody.Limit.ADMIN))) && Callers.isAdmin(request);
    int limit = admin ? (file ? config.fileMaxSize() : config.adminMaxSize()) : limitOf(marked);
    if (declared.isPresent() && declared.getAsLong() > limit) {
      return Mono.just(tooLarge(path, limit));
    }
    if (admin && file) {
      return chain.proceed(); // streamed: the route holds it to the limit as it reads
    }
    AtomicInteger reserved = new AtomicInteger();
    if (!admin) {
      int reserve = declared.isPresent() ? (int) declared.getAsLong() : limit;
      if (!budget.tryAcquire(reserve)) {
        return Mono.just(busy(path));
      }
      reserved.set(reserve);
    }
    // The count ends inside the body buffer's own completion; the rest of the request (which binds
    // the same body) runs after it, on the connection's event loop, never nested within it.
    return Mono.fromFuture(
            BodyCount.of(body, limit, config.readTimeout())
                .thenApplyAsync(Function.identity(), afterThisTask(request)))
        .flatMap(
            result -> {
              if (result instanceof BodyCount.Result.Complete) {
                ReadBodies.mark(request);
                return Mono.from(chain.proceed());
              }
              return Mono.just(refusal(result, path, limit));
            })
        // The reservation is returned when the answer leaves, whatever it is.
        .doFinally(signal -> release(reserved));
  }

  /** Runs a task after the current one on the request's event loop (at once off Netty). */
  private static Executor afterThisTask(HttpRequest<?> request) {
    return request instanceof NettyHttpRequest<?> netty
        ? netty.getChannelHandlerContext().channel().eventLoop()
        : Runnable::run;
  }

  private void release(AtomicInteger reserved) {
    int bytes = reserved.getAndSet(0);
    if (bytes > 0) {
      budget.release(bytes);
    }
  }

  private MutableHttpResponse<?> refusal(BodyCount.Result result, String path, int limit) {
    if (result instanceof BodyCount.Result.TooLarge) {
      return tooLarge(path, limit);
    } else if (result instanceof BodyCount.Result.TimedOut) {
      return ProblemType.BODY_TIMEOUT.response(
          "the request body did not arrive within " + config.readTimeout().toSeconds() + " s",
          path);
    }
    return ProblemType.INVALID_REQUEST.response(
        "the request body could not be read to its end", path);
  }

  private int limitOf(Optional<TakesBody.Limit> marked) {
    return marked.equals(Optional.of(TakesBody.Limit.WEBHOOK))
        ? config.webhookMaxSize()
        : config.defaultMaxSize();
  }

  static MutableHttpResponse<?> tooLarge(String path, long limit) {
    return ProblemType.PAYLOAD_TOO_LARGE.response(
        "the request body is larger than the " + limit + " bytes this route takes", path);
  }

  private MutableHttpResponse<?> busy(String path) {
    return ProblemType.OVERLOADED.retryLater(
        "this instance holds as many request bodies as it may; retry later",
        path,
        http.retryAfter());
  }
}
