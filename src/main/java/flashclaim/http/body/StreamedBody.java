package flashclaim.http.body;

import flashclaim.http.FilterPaths;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpResponse;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;

/**
 * A body that its route reads as it arrives ({@link TakesBody.Limit#FILE}, for admins): {@link
 * BodyLimitFilter} checks only its declared length, the route reads it through {@link #limited},
 * and filters that would wait for the whole body (idempotency keys, which fingerprint it) or hold
 * a resource for as long as it lasts (the modification guard) leave it alone ({@link #isStreamed}).
 */
public final class StreamedBody {
  private StreamedBody() {}

  /** Thrown by a {@link #limited} stream once more than its limit has arrived. */
  public static final class TooLarge extends IOException {
    private final long limit;

    TooLarge(long limit) {
      super("the request body is larger than " + limit + " bytes", null);
      this.limit = limit;
    }

    /** The 413 answer. */
    public MutableHttpResponse<?> response(String path) {
      return BodyLimitFilter.tooLarge(path, limit);
    }
  }

  /** Whether the request's route streams its body (for an admin). */
  public static boolean isStreamed(HttpRequest<?> request) {
    return FilterPaths.routeMarked(request, TakesBody.class)
        .flatMap(r -> r.getAnnotationMetadata().enumValue(TakesBody.class, TakesBody.Limit.class))
        .equals(Optional.of(TakesBody.Limit.FILE));
  }

  /** {@code body}, failing with {@link TooLarge} once more than {@code limit} bytes were read. */
  public static InputStream limited(InputStream body, long limit) {
    return new FilterInputStream(body) {
      private long read;

      @Override
      public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
          count(1);
        }
        return b;
      }

      @Override
      public int read(byte[] bytes, int offset, int length) throws IOException {
        int n = super.read(bytes, offset, length);
        if (n > 0) {
          count(n);
        }
        return n;
      }

      @Override
      public long skip(long n) throws IOException {
        long skipped = super.skip(n);
        count(skipped);
        return skipped;
      }

      private void count(long n) throws TooLarge {
        read += n;
        if (read > limit) {
          throw new TooLarge(limit);
        }
      }
    };
  }
}
