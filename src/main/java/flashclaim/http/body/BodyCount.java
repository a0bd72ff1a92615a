package flashclaim.http.body;

import io.micronaut.http.body.ByteBody;
import io.micronaut.http.exceptions.BufferLengthExceededException;
import io.micronaut.http.exceptions.ContentLengthExceededException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

/**
 * Reads a request body to its end as it streams in, keeping none of it, and stops as soon as it
 * passes a limit or a deadline. It reads a {@link ByteBody#split split} of the body, driving the
 * network as fast as it reads, so the framework keeps the body for the route only up to the limit.
 */
final class BodyCount implements Subscriber<byte[]> {

  /** How the read ended. */
  sealed interface Result {
    /** The whole body arrived within the limit and the deadline. */
    record Complete(long bytes) implements Result {}

    /** The body passed the limit; the rest was not read. */
    record TooLarge() implements Result {}

    /** The body did not arrive in full before the deadline. */
    record TimedOut() implements Result {}

    /** The body broke off: the client went away or sent a malformed stream. */
    record Broken(Throwable cause) implements Result {}
  }

  private final long limit;
  private final CompletableFuture<Result> result = new CompletableFuture<>();
  private final AtomicReference<Subscription> subscription = new AtomicReference<>();
  private long bytes;

  private BodyCount(long limit) {
    this.limit = limit;
  }

  /** Counts {@code body} against {@code limit} bytes and {@code deadline}. */
  static CompletableFuture<Result> of(ByteBody body, long limit, Duration deadline) {
    BodyCount count = new BodyCount(limit);
    count.result.completeOnTimeout(new Result.TimedOut(), deadline.toMillis(), TimeUnit.MILLISECONDS);
    count.result.whenComplete(
        (r, e) -> {
          if (!(r instanceof Result.Complete)) {
            count.cancel();
          }
        });
    body.split(ByteBody.SplitBackpressureMode.NEW).toByteArrayPublisher().subscribe(count);
    return count.result;
  }

  @Override
  public void onSubscribe(Subscription s) {
    if (!subscription.compareAndSet(null, s) || result.isDone()) {
      s.cancel();
      return;
    }
    s.request(Long.MAX_VALUE);
  }

  @Override
  public void onNext(byte[] chunk) {
    bytes += chunk.length;
    if (bytes > limit) {
      result.complete(new Result.TooLarge());
    }
  }

  @Override
  public void onError(Throwable t) {
    // The framework's own ceiling (micronaut.server.max-request-size) may cut the body first.
    boolean tooLarge =
        t instanceof ContentLengthExceededException || t instanceof BufferLengthExceededException;
    result.complete(tooLarge ? new Result.TooLarge() : new Result.Broken(t));
  }

  @Override
  public void onComplete() {
    result.complete(new Result.Complete(bytes));
  }

  private void cancel() {
    Subscription s = subscription.getAndSet(CANCELLED);
    if (s != null && s != CANCELLED) {
      s.cancel();
    }
  }

  private static final Subscription CANCELLED =
      new Subscription() {
        @Override
        public void request(long n) {}

        @Override
        public void cancel() {}
      };
}
