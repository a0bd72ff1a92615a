package flashclaim.http.claim;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * How long a claim may wait for a slot: {@code max-wait}, and no later than its deadline less the
 * time its store work is expected to take (the mean hold), or less {@code work-reserve} if that is
 * longer, so that a claim is not admitted only to be answered {@code busy} at its deadline.
 */
class ClaimAdmissionWaitTest {
  private static final Duration DEADLINE = Duration.ofSeconds(2);
  private static final Duration RESERVE = Duration.ofMillis(100);

  @Test
  void aClaimWaitsUntilItsDeadlineLessTheReserveWhileClaimsHoldTheirSlotsBriefly() {
    assertThat(ClaimAdmission.longestWait(DEADLINE, RESERVE, Duration.ofSeconds(2), Duration.ZERO))
        .isEqualTo(Duration.ofMillis(1_900));
    assertThat(
            ClaimAdmission.longestWait(
                DEADLINE, RESERVE, Duration.ofSeconds(2), Duration.ofMillis(60)))
        .isEqualTo(Duration.ofMillis(1_900));
  }

  @Test
  void aClaimWaitsNoLaterThanItsDeadlineLessTheMeanHoldWhenThatIsLonger() {
    assertThat(
            ClaimAdmission.longestWait(
                DEADLINE, RESERVE, Duration.ofSeconds(2), Duration.ofMillis(450)))
        .isEqualTo(Duration.ofMillis(1_550));
  }

  @Test
  void maxWaitBoundsItAsBefore() {
    assertThat(
            ClaimAdmission.longestWait(
                DEADLINE, RESERVE, Duration.ofMillis(500), Duration.ofMillis(450)))
        .isEqualTo(Duration.ofMillis(500));
  }
}
