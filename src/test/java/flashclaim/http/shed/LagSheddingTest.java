package flashclaim.http.shed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.netflix.concurrency.limits.limit.FixedLimit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;
import flashclaim.admission.SlotCeiling;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The ceiling over the claims' limit while the event loops run late and claims are refused: cut
 * to a share of what runs at once, not below its floor, at most once per hold; never for late
 * loops alone; raised a slot a step once the loops are on time, and gone at the adaptive limit;
 * the limiter admits the lower of the two at once.
 */
class LagSheddingTest {
  private static final long MS = 1_000_000L;
  private static final LagShedConfig CONFIG =
      new LagShedConfig(true, Duration.ofMillis(100), 0.7, 4, Duration.ofMillis(500));

  private final SlotCeiling ceiling = new SlotCeiling(FixedLimit.of(64));
  private final SimpleLimiter<Void> limiter =
      SimpleLimiter.newBuilder().named("claims").limit(ceiling).build();
  /** Claims refused so far: every step below refuses one more unless it says otherwise. */
  private final AtomicLong refused = new AtomicLong();
  private final LagShedding shedding = new LagShedding(() -> 0, refused::get, ceiling, CONFIG);

  private void step(double behindSeconds, long nowNanos) {
    refused.incrementAndGet();
    shedding.step(behindSeconds, nowNanos);
  }

  @Test
  void loopsOnTimeLeaveTheAdaptiveLimitAlone() {
    for (int step = 0; step < 50; step++) {
      step(0.1, step * 100 * MS); // at the target is on time
    }
    assertThat(ceiling.ceiling()).isEqualTo(SlotCeiling.NONE);
    assertThat(limiter.getLimit()).isEqualTo(64);
  }

  @Test
  void lateLoopsCutOncePerHoldDownToTheFloor() {
    List<Integer> limits = new ArrayList<>();
    for (int step = 0; step < 60; step++) {
      step(0.3, step * 100 * MS);
      limits.add(limiter.getLimit());
    }
    // a cut at 0, 500, 1000 ms ...: 64 -> 44 -> 30 -> 21 -> 14 -> 9 -> 6 -> 4, then the floor
    assertThat(limits.subList(0, 5)).containsOnly(44);
    assertThat(limits.subList(5, 10)).containsOnly(30);
    assertThat(limits.subList(10, 15)).containsOnly(21);
    assertThat(limits.get(59)).isEqualTo(4);
    assertThat(limits).doesNotContain(3, 2, 1);
  }

  @Test
  void onTimeAgainTheCeilingRisesASlotAStepUntilItIsGone() {
    step(1.0, 0);
    step(1.0, 500 * MS);
    assertThat(limiter.getLimit()).isEqualTo(30);
    List<Integer> limits = new ArrayList<>();
    for (int step = 1; step <= 40; step++) {
      step(0.0, 500 * MS + step * 100 * MS);
      limits.add(limiter.getLimit());
    }
    assertThat(limits.subList(0, 3)).containsExactly(31, 32, 33);
    assertThat(limits.get(32)).isEqualTo(63);
    assertThat(limits.get(33)).isEqualTo(64);
    assertThat(ceiling.ceiling()).isEqualTo(SlotCeiling.NONE);
  }

  @Test
  void lateLoopsWithoutRefusalsAreNotCut() {
    // a pause of the compiler or collector, or a burst the line absorbs: nobody is refused
    for (int step = 0; step < 20; step++) {
      shedding.step(0.5, step * 100 * MS);
    }
    assertThat(ceiling.ceiling()).isEqualTo(SlotCeiling.NONE);
    // a refusal 600 ms before is older than the hold: still no cut
    step(0.0, 2_000 * MS);
    shedding.step(0.5, 2_600 * MS);
    assertThat(ceiling.ceiling()).isEqualTo(SlotCeiling.NONE);
    // one within the hold: cut
    step(0.0, 3_000 * MS);
    shedding.step(0.5, 3_400 * MS);
    assertThat(limiter.getLimit()).isEqualTo(44);
  }

  @Test
  void aCutStartsFromWhatRunsNowWhenTheAdaptiveLimitIsLower() {
    SlotCeiling low = new SlotCeiling(FixedLimit.of(10));
    LagShedding control = new LagShedding(() -> 0, () -> 1, low, CONFIG);
    control.step(0.5, 0);
    assertThat(low.ceiling()).isEqualTo(7);
    assertThat(low.getLimit()).isEqualTo(7);
  }

  @Test
  void aConfigurationThatCannotWorkStopsTheService() {
    Duration ms100 = Duration.ofMillis(100);
    for (Duration target : new Duration[] {Duration.ZERO, Duration.ofMillis(-1)}) {
      assertThatThrownBy(() -> new LagShedConfig(true, target, 0.7, 4, ms100))
          .hasMessageContaining("lag-shed.target");
    }
    for (double keep : new double[] {0, 1, 1.5, -0.2, Double.NaN}) {
      assertThatThrownBy(() -> new LagShedConfig(true, ms100, keep, 4, ms100))
          .as("keep %s", keep)
          .hasMessageContaining("lag-shed.keep");
    }
    assertThatThrownBy(() -> new LagShedConfig(true, ms100, 0.7, 0, ms100))
        .hasMessageContaining("lag-shed.min-slots");
    assertThatThrownBy(() -> new LagShedConfig(true, ms100, 0.7, 4, Duration.ofMillis(-1)))
        .hasMessageContaining("lag-shed.hold");
  }
}
