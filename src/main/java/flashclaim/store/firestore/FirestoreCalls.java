package flashclaim.store.firestore;

import com.google.api.core.ApiFuture;
import com.google.api.core.ApiFutureCallback;
import com.google.api.core.ApiFutures;
import com.google.api.core.SettableApiFuture;
import com.google.api.gax.rpc.ApiException;
import com.google.cloud.Timestamp;
import com.google.common.util.concurrent.MoreExecutors;
import flashclaim.StoreException;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The one way this adapter waits for Firestore: always with a timeout, faults wrapped once. A call
 * whose timeout is zero (its deadline has passed, see {@link flashclaim.Deadline#timeout}) does not
 * start.
 */
public final class FirestoreCalls {
  /** The failures that are expected outcomes: a precondition that failed, a document that exists. */
  private static final Set<Status.Code> EXPECTED =
      EnumSet.of(
          Status.Code.FAILED_PRECONDITION,
          Status.Code.ALREADY_EXISTS,
          Status.Code.ABORTED,
          Status.Code.NOT_FOUND);
  /** The failures of a call that may pass when it is tried again. */
  private static final Set<Status.Code> PASSING =
      EnumSet.of(Status.Code.UNKNOWN, Status.Code.INTERNAL, Status.Code.UNAVAILABLE);

  private FirestoreCalls() {}

  /**
   * What a call whose failure may be an expected outcome came to.
   *
   * @param code {@code OK}, or the code of an expected failure (see {@link #EXPECTED}), or of a passing one
   * @param value the call's result when {@code OK}, else null
   */
  record Attempt<T>(Status.Code code, T value) {
    boolean ok() {
      return code == Status.Code.OK;
    }
  }

  /**
   * Starts the call and waits for it; any failure, including one the client throws before the call
   * starts (a closed client during shutdown), becomes a {@link StoreException}.
   */
  public static <T> T await(Supplier<ApiFuture<T>> start, Duration timeout, String what) {
    return call(start, timeout, what, Set.of()).value();
  }

  /**
   * Like {@link #await}, for a read that no user waits on (a webhook's lookup): a read changes
   * nothing, so one that failed for a passing reason ({@code UNKNOWN}, {@code INTERNAL}, {@code
   * UNAVAILABLE}; the emulator answers {@code UNKNOWN} to a query that meets concurrent writes) is
   * tried once more, with the same timeout.
   */
  static <T> T read(Supplier<ApiFuture<T>> start, Duration timeout, String what) {
    Attempt<T> first = call(start, timeout, what, PASSING);
    return first.ok() ? first.value() : await(start, timeout, what);
  }

  /**
   * Like {@link #await}, but an expected failure (a failed precondition, a document that exists or
   * is missing, an aborted transaction) is a value, not an exception: under contention it is the
   * common case, and it costs the caller no stack trace.
   */
  static <T> Attempt<T> attempt(
      Supplier<? extends ApiFuture<? extends T>> start, Duration timeout, String what) {
    return call(start, timeout, what, EXPECTED);
  }

  private static <T> Attempt<T> call(
      Supplier<? extends ApiFuture<? extends T>> start,
      Duration timeout,
      String what,
      Set<Status.Code> asValue) {
    if (timeout.isZero() || timeout.isNegative()) {
      throw new StoreException("no time was left to " + what, null);
    }
    ApiFuture<? extends T> call = start(start, what);
    try {
      return new Attempt<>(Status.Code.OK, call.get(timeout.toMillis(), TimeUnit.MILLISECONDS));
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      Status.Code code = codeOf(cause);
      if (asValue.contains(code)) {
        return new Attempt<>(code, null);
      }
      throw new StoreException("Firestore failed to " + what + ": " + statusOf(cause), cause);
    } catch (TimeoutException e) {
      call.cancel(true);
      throw new StoreException("Firestore did not " + what + " within " + timeout, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreException("interrupted while waiting to " + what, e);
    }
  }

  /**
   * A view of {@code call} that a timeout gives up on without cancelling the call itself. For a
   * transaction: the client rolls back an attempt that fails, not one that is cancelled, which may
   * stay open holding its locks; left alone, it ends by itself (commits, or fails and is rolled
   * back) soon after.
   */
  static <T> ApiFuture<T> detached(ApiFuture<T> call) {
    SettableApiFuture<T> view = SettableApiFuture.create();
    ApiFutures.addCallback(
        call,
        new ApiFutureCallback<T>() {
          @Override
          public void onSuccess(T result) {
            view.set(result);
          }

          @Override
          public void onFailure(Throwable failure) {
            view.setException(failure);
          }
        },
        MoreExecutors.directExecutor());
    return view;
  }

  /** Starts a call, wrapping what the client throws synchronously. */
  static <F extends ApiFuture<?>> F start(Supplier<F> start, String what) {
    try {
      return start.get();
    } catch (RuntimeException e) {
      throw new StoreException("Firestore could not start to " + what + ": " + e.getMessage(), e);
    }
  }

  static Status.Code codeOf(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof ApiException api) {
        return Status.Code.valueOf(api.getStatusCode().getCode().name());
      }
      if (t instanceof StatusRuntimeException grpc) {
        return grpc.getStatus().getCode();
      }
      if (t instanceof com.google.cloud.firestore.FirestoreException fe && fe.getStatus() != null) {
        return fe.getStatus().getCode();
      }
    }
    return Status.Code.UNKNOWN;
  }

  private static String statusOf(Throwable failure) {
    return codeOf(failure) + " " + failure.getMessage();
  }

  static Timestamp timestamp(Instant instant) {
    return Timestamp.ofTimeSecondsAndNanos(instant.getEpochSecond(), instant.getNano());
  }

  public static Instant instant(Timestamp timestamp) {
    return timestamp == null ? null : Instant.ofEpochSecond(timestamp.getSeconds(), timestamp.getNanos());
  }
}
