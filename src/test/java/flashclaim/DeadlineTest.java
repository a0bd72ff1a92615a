package flashclaim;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.MovableClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The deadline rule that every store call of a claim follows, on a clock the test moves. */
class DeadlineTest {
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);

  private final MovableClock clock = new MovableClock(Instant.parse("2030-01-01T00:00:00Z"));

  @Test
  void aCallWaitsWhatIsLeftAtMostTheCallTimeout() {
    Deadline deadline = Deadline.after(clock.instant(), Duration.ofSeconds(8), clock);
    assertThat(deadline.timeout(CALL_TIMEOUT)).isEqualTo(CALL_TIMEOUT);

    clock.move(Duration.ofMillis(7_700));
    assertThat(deadline.passed()).isFalse();
    assertThat(deadline.timeout(CALL_TIMEOUT)).isEqualTo(Duration.ofMillis(300));
  }

  @Test
  void whatIsLeftIsRoundedUpToAWholeMillisecondSoThatACallCutAtItFindsTheDeadlinePassed() {
    Deadline deadline = Deadline.after(clock.instant(), Duration.ofMillis(300), clock);
    clock.move(Duration.ofNanos(299_000_001));
    assertThat(deadline.timeout(CALL_TIMEOUT)).isEqualTo(Duration.ofMillis(1));
    clock.move(Duration.ofNanos(999_999));
    assertThat(deadline.passed()).isTrue();
  }

  @Test
  void noCallStartsOnceTheDeadlineHasPassed() {
    Deadline deadline = Deadline.after(clock.instant(), Duration.ofMillis(300), clock);
    clock.move(Duration.ofMillis(300));
    assertThat(deadline.passed()).isTrue();
    assertThat(deadline.timeout(CALL_TIMEOUT)).isEqualTo(Duration.ZERO);
    clock.move(Duration.ofSeconds(1));
    assertThat(deadline.timeout(CALL_TIMEOUT)).isEqualTo(Duration.ZERO);

    Deadline already = Deadline.after(clock.instant(), Duration.ZERO, clock);
    assertThat(already.passed()).isTrue();
    assertThat(already.timeout(CALL_TIMEOUT)).isEqualTo(Duration.ZERO);
  }

  @Test
  void noDeadlineLeavesTheCallTimeout() {
    assertThat(Deadline.none().passed()).isFalse();
    assertThat(Deadline.none().timeout(CALL_TIMEOUT)).isEqualTo(CALL_TIMEOUT);
    assertThat(Deadline.none().instant()).isEqualTo(Instant.MAX);
  }
}
