package flashclaim.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The drain rate's rules, on a clock the test moves: measured from the gaps between slots freed
 * while claims waited, standing ten windows, growing while unused, floored by the slots freed over
 * the last window, and taught only by claims that ran.
 */
class DrainMeterTest {
  private static final int LIMIT = 100;

  private final DrainMeter meter = new DrainMeter(Duration.ofSeconds(1), 2, 0.05);
  private Instant now = Instant.parse("2026-12-07T12:00:00Z");

  @Test
  void nothingIsKnownUntilAClaimHasRun() {
    assertThat(meter.measured()).isFalse();
    assertThat(meter.secondsPerSlot(now, LIMIT, true)).isNaN();

    meter.ran(now, 0.2, false);
    assertThat(meter.measured()).isTrue();
    assertThat(meter.secondsPerSlot(now, LIMIT, true))
        .as("the mean hold over the limit")
        .isCloseTo(0.002, within(1e-9));
  }

  @Test
  void slotsFreedWhileClaimsWaitMeasureTheDrain() {
    meter.ran(now, 0.2, false); // a mean hold of 200 ms: 2 ms a slot at a limit of 100
    freeWhileWaiting(60, Duration.ofMillis(40));
    assertThat(meter.secondsPerSlot(now, LIMIT, false))
        .as("a slot every 40 ms, not the 2 ms the mean hold would say")
        .isCloseTo(0.04, within(0.001));
  }

  @Test
  void tooFewSlotsFreedWhileWaitingMeasureNothing() {
    meter.ran(now, 0.2, false);
    freeWhileWaiting((int) DrainMeter.MIN_BUSY_FREES - 5, Duration.ofMillis(40));
    assertThat(meter.secondsPerSlot(now, LIMIT, false))
        .as("the mean hold over the limit still")
        .isCloseTo(meter.meanHoldSeconds() / LIMIT, within(1e-9));
  }

  @Test
  void aMeasureLapsesTenWindowsAfterItsLastSlot() {
    meter.ran(now, 0.2, false);
    freeWhileWaiting(60, Duration.ofMillis(40));
    double open = meter.meanHoldSeconds() / LIMIT;

    later(Duration.ofSeconds(9));
    meter.waited(now); // claims wait again: the measure is not grown as unused
    later(Duration.ofMillis(900));
    assertThat(meter.secondsPerSlot(now, LIMIT, false))
        .as("still standing")
        .isCloseTo(0.04, within(0.001));
    later(Duration.ofMillis(200));
    assertThat(meter.secondsPerSlot(now, LIMIT, false)).as("lapsed").isCloseTo(open, within(1e-9));
  }

  @Test
  void aMeasureUnusedForMoreThanAWindowGrowsTowardsTheMeanHoldOverTheLimit() {
    meter.ran(now, 0.2, false);
    freeWhileWaiting(60, Duration.ofMillis(40));
    double open = meter.meanHoldSeconds() / LIMIT;

    later(Duration.ofSeconds(3)); // two windows beyond the first without a claim waiting
    assertThat(meter.secondsPerSlot(now, LIMIT, true)).isCloseTo(0.04 / 4, within(0.001));
    assertThat(meter.secondsPerSlot(now, LIMIT, false))
        .as("not while claims wait in line")
        .isCloseTo(0.04, within(0.001));
    later(Duration.ofSeconds(5));
    assertThat(meter.secondsPerSlot(now, LIMIT, true))
        .as("never beyond it")
        .isCloseTo(open, within(1e-9));
  }

  @Test
  void aSlowMeasureIsNotKeptWhileTheInstanceServesFaster() {
    meter.ran(now, 0.2, false);
    freeWhileWaiting(60, Duration.ofMillis(40)); // a slow start: 25 slots a second
    for (int i = 0; i < 100; i++) { // then 100 claims in half a second, none waiting
      later(Duration.ofMillis(5));
      meter.ran(now, 0.2, false);
    }
    assertThat(meter.secondsPerSlot(now, LIMIT, true))
        .as("a window over the slots freed in it, not the 40 ms measured")
        .isBetween(0.008, 0.02);
  }

  @Test
  void onlyClaimsThatRanTeachTheDrain() {
    meter.ran(now, 0.2, false);
    freeWhileWaiting(60, Duration.ofMillis(40));
    for (int i = 0; i < 30; i++) { // claims that failed, claims waiting all along
      later(Duration.ofMillis(200));
      meter.failed();
      meter.waited(now);
    }
    assertThat(meter.meanHoldSeconds()).as("failures are no hold").isCloseTo(0.2, within(1e-9));
    freeWhileWaiting(1, Duration.ofMillis(40));
    assertThat(meter.secondsPerSlot(now, LIMIT, false))
        .as("the gap across the failures is not a sample")
        .isCloseTo(0.04, within(0.001));
  }

  /** {@code count} claims that held 200 ms free their slots {@code gap} apart, claims waiting. */
  private void freeWhileWaiting(int count, Duration gap) {
    for (int i = 0; i < count; i++) {
      later(gap);
      meter.waited(now);
      meter.ran(now, 0.2, true);
    }
  }

  private void later(Duration time) {
    now = now.plus(time);
  }
}
