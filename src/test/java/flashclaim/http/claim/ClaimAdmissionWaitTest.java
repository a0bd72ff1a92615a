package flashclaim.http.claim;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * How long a claim may wait for a slot: {@code max-wait}, and no later than its deadline (2 s
 * here) less the time its store work is expected to take (the mean hold), or less {@code
 * work-reserve} (100 ms here) if that is longer, so that a claim is not admitted only to be
 * answered {@code busy} at its deadline.
 */
class ClaimAdmissionWaitTest {

  @Test
  void aClaimWaitsUntilItsDeadlineLessTheReserveWhileClaimsHoldTheirSlotsBriefly() {
    assertThat(longestWait(2_000, 0)).isEqualTo(Duration.ofMillis(1_900));
    assertThat(longestWait(2_000, 60)).isEqualTo(Duration.ofMillis(1_900));
  }

  @Test
  void aClaimWaitsNoLaterThanItsDeadlineLessTheMeanHoldWhenThatIsLonger() {
    assertThat(longestWait(2_000, 450)).isEqualTo(Duration.ofMillis(1_550));
  }

  @Test
  void maxWaitBoundsItAsBefore() {
    assertThat(longestWait(500, 450)).isEqualTo(Duration.ofMillis(500));
  }

  private static Duration longestWait(long maxWaitMs, long meanHoldMs) {
    return ClaimAdmission.longestWait(
        Duration.ofSeconds(2),
        Duration.ofMillis(100),
        Duration.ofMillis(maxWaitMs),
        Duration.ofMillis(meanHoldMs));
  }
}
