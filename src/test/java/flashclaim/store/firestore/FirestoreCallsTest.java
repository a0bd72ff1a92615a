package flashclaim.store.firestore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.api.core.ApiFuture;
import com.google.api.core.ApiFutures;
import flashclaim.StoreException;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * How {@link FirestoreCalls} treats a failed call: a read is tried once more after a passing
 * failure and never after another, and a plain wait is never tried again.
 */
class FirestoreCallsTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(1);

  /** Answers each call with the next of {@code answers}: a code fails the call, null succeeds. */
  private static final class Calls implements Supplier<ApiFuture<String>> {
    private final Deque<Status.Code> answers;
    int made;

    Calls(Status.Code... answers) {
      this.answers = new ArrayDeque<>();
      for (Status.Code code : answers) {
        this.answers.add(code == null ? Status.Code.OK : code);
      }
    }

    @Override
    public ApiFuture<String> get() {
      made++;
      Status.Code code = answers.remove();
      return code == Status.Code.OK
          ? ApiFutures.immediateFuture("value")
          : ApiFutures.immediateFailedFuture(new StatusRuntimeException(code.toStatus()));
    }
  }

  @Test
  void aReadThatFailedForAPassingReasonIsTriedOnceMore() {
    for (Status.Code passing : List.of(Status.Code.UNKNOWN, Status.Code.INTERNAL, Status.Code.UNAVAILABLE)) {
      Calls calls = new Calls(passing, null);
      assertThat(FirestoreCalls.read(calls, TIMEOUT, "read")).as(passing.name()).isEqualTo("value");
      assertThat(calls.made).as(passing.name()).isEqualTo(2);
    }
  }

  @Test
  void aReadThatFailsTwiceOrForAnotherReasonFails() {
    Calls twice = new Calls(Status.Code.UNKNOWN, Status.Code.UNKNOWN, null);
    assertThatThrownBy(() -> FirestoreCalls.read(twice, TIMEOUT, "read"))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("UNKNOWN");
    assertThat(twice.made).isEqualTo(2);

    Calls denied = new Calls(Status.Code.PERMISSION_DENIED, null);
    assertThatThrownBy(() -> FirestoreCalls.read(denied, TIMEOUT, "read"))
        .isInstanceOf(StoreException.class);
    assertThat(denied.made).isEqualTo(1);
  }

  @Test
  void aPlainWaitIsNotTriedAgain() {
    Calls calls = new Calls(Status.Code.UNKNOWN, null);
    assertThatThrownBy(() -> FirestoreCalls.await(calls, TIMEOUT, "write"))
        .isInstanceOf(StoreException.class);
    assertThat(calls.made).isEqualTo(1);
  }
}
