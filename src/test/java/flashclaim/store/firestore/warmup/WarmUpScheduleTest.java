package flashclaim.store.firestore.warmup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import flashclaim.store.firestore.warmup.WarmUpSchedule.Step;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The ramp's steps and totals, and the options that make no ramp. */
class WarmUpScheduleTest {
  private static final Duration FIVE_MINUTES = Duration.ofMinutes(5);

  @Test
  void theDefaultRampGrowsByHalfEveryFiveMinutesThenHoldsTheTarget() {
    WarmUpSchedule schedule = new WarmUpSchedule(500, 1.5, FIVE_MINUTES, 2000, FIVE_MINUTES);

    assertThat(schedule.steps())
        .containsExactly(
            new Step(500, FIVE_MINUTES),
            new Step(750, FIVE_MINUTES),
            new Step(1125, FIVE_MINUTES),
            new Step(1687, FIVE_MINUTES),
            new Step(2000, FIVE_MINUTES));
    // step x ceil(log_1.5(2000 / 500)) + hold = 5m x 4 + 5m
    assertThat(schedule.total()).isEqualTo(Duration.ofMinutes(25));
    assertThat(schedule.plannedWrites()).isEqualTo((500 + 750 + 1125 + 1687 + 2000) * 300L);
  }

  @Test
  void aTinyRampCountsItsWritesExactly() {
    Duration second = Duration.ofSeconds(1);
    WarmUpSchedule schedule = new WarmUpSchedule(20, 1.5, second, 40, Duration.ofSeconds(2));

    assertThat(schedule.steps())
        .containsExactly(new Step(20, second), new Step(30, second), new Step(40, Duration.ofSeconds(2)));
    assertThat(schedule.plannedWrites()).isEqualTo(20 + 30 + 80);
    assertThat(schedule.total()).isEqualTo(Duration.ofSeconds(4));
    assertThat(schedule.describe())
        .containsExactly(
            "step 1 of 3: 20 writes/s for 1s (20 writes)",
            "step 2 of 3: 30 writes/s for 1s (30 writes)",
            "step 3 of 3: 40 writes/s for 2s (80 writes), hold",
            "total: 130 writes in 4s");
  }

  @Test
  void aTargetAtOrBelowTheStartRateIsTheHoldAlone() {
    assertThat(new WarmUpSchedule(500, 1.5, FIVE_MINUTES, 300, Duration.ofMinutes(10)).steps())
        .containsExactly(new Step(300, Duration.ofMinutes(10)));
    assertThat(new WarmUpSchedule(500, 1.5, FIVE_MINUTES, 500, FIVE_MINUTES).steps())
        .containsExactly(new Step(500, FIVE_MINUTES));
  }

  @Test
  void aSlowerGrowthTakesMoreSteps() {
    WarmUpSchedule schedule = new WarmUpSchedule(100, 1.2, Duration.ofSeconds(10), 200, Duration.ofSeconds(10));

    assertThat(schedule.steps()).extracting(Step::rate).containsExactly(100L, 120L, 144L, 172L, 200L);
    assertThat(schedule.total()).isEqualTo(Duration.ofSeconds(50));
  }

  @Test
  void nonsenseIsRefusedNamingTheOption() {
    Duration s = Duration.ofSeconds(1);
    assertThatThrownBy(() -> new WarmUpSchedule(0, 1.5, s, 40, s)).hasMessageContaining("--start-rate");
    assertThatThrownBy(() -> new WarmUpSchedule(20, 1.5, s, 0, s)).hasMessageContaining("--target-rate");
    assertThatThrownBy(() -> new WarmUpSchedule(20, 1.0, s, 40, s)).hasMessageContaining("--growth must be above 1");
    assertThatThrownBy(() -> new WarmUpSchedule(20, Double.NaN, s, 40, s)).hasMessageContaining("--growth");
    assertThatThrownBy(() -> new WarmUpSchedule(20, 2.0, s, 40, s))
        .hasMessageContaining("at most 1.5")
        .hasMessageContaining("Firestore advises growing new traffic by at most 50 %");
    assertThatThrownBy(() -> new WarmUpSchedule(20, 1.5, Duration.ofMillis(999), 40, s))
        .hasMessageContaining("--step must be at least 1s");
    assertThatThrownBy(() -> new WarmUpSchedule(20, 1.5, s, 40, Duration.ZERO))
        .hasMessageContaining("--hold must be at least 1s");
  }

  @Test
  void optionsHaveTheDocumentedDefaults() {
    WarmUpMain.Options options =
        WarmUpMain.Options.parse(
            new String[] {"--campaign", "spring", "--target-rate", "3000"},
            Map.of(WarmUpMain.PROJECT_ENV, "shop-prod"));

    assertThat(options.project()).isEqualTo("shop-prod");
    assertThat(options.campaign().value()).isEqualTo("spring");
    assertThat(options.schedule()).isEqualTo(new WarmUpSchedule(500, 1.5, FIVE_MINUTES, 3000, FIVE_MINUTES));
  }

  @Test
  void optionsOverrideTheDefaults() {
    WarmUpMain.Options options =
        WarmUpMain.Options.parse(
            new String[] {
              "--project", "other", "--campaign", "spring", "--target-rate", "40", "--start-rate", "20",
              "--growth", "1.25", "--step", "90s", "--hold", "1h"
            },
            Map.of(WarmUpMain.PROJECT_ENV, "shop-prod"));

    assertThat(options.project()).isEqualTo("other");
    assertThat(options.schedule())
        .isEqualTo(new WarmUpSchedule(20, 1.25, Duration.ofSeconds(90), 40, Duration.ofHours(1)));
  }

  @Test
  void badOptionsAreRefusedInOneLine() {
    Map<String, String> env = Map.of(WarmUpMain.PROJECT_ENV, "p");
    assertThatThrownBy(() -> WarmUpMain.Options.parse(new String[] {"--target-rate", "40"}, env))
        .hasMessage("--campaign is required");
    assertThatThrownBy(() -> WarmUpMain.Options.parse(new String[] {"--campaign", "c"}, env))
        .hasMessage("--target-rate is required");
    assertThatThrownBy(
            () -> WarmUpMain.Options.parse(new String[] {"--campaign", "c", "--target-rate", "40"}, Map.of()))
        .hasMessageContaining("--project is required");
    assertThatThrownBy(() -> WarmUpMain.Options.parse(new String[] {"--campaign", "c", "--rate", "4"}, env))
        .hasMessage("unknown option --rate");
    assertThatThrownBy(() -> WarmUpMain.Options.parse(new String[] {"--campaign"}, env))
        .hasMessage("--campaign needs a value");
    assertThatThrownBy(
            () -> WarmUpMain.Options.parse(new String[] {"--campaign", "c", "--target-rate", "lots"}, env))
        .hasMessageContaining("--target-rate must be a whole number");
    assertThatThrownBy(
            () ->
                WarmUpMain.Options.parse(
                    new String[] {"--campaign", "c", "--target-rate", "40", "--step", "5 minutes"}, env))
        .hasMessageContaining("--step must be a duration");
    assertThatThrownBy(
            () -> WarmUpMain.Options.parse(new String[] {"--campaign", "a/b", "--target-rate", "40"}, env))
        .hasMessageContaining("--campaign: campaign id must be");
  }

  @Test
  void durationsArePrintedForPeople() {
    assertThat(WarmUpMain.format(Duration.ofMinutes(25))).isEqualTo("25m");
    assertThat(WarmUpMain.format(Duration.ofSeconds(5430))).isEqualTo("1h30m30s");
    assertThat(WarmUpMain.format(Duration.ofSeconds(3))).isEqualTo("3s");
  }
}
