package flashclaim.store.firestore.warmup;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The ramp of a warm-up (Firestore's 500/50/5 rule): {@code startRate} writes per second for one
 * step, then the rate times {@code growth} for each further step, until the next rate would reach
 * {@code targetRate}; then {@code targetRate} for {@code hold}. Rates are whole writes per second
 * (rounded down); a start rate at or above the target is the hold alone.
 *
 * @param startRate writes per second of the first step
 * @param growth factor from one step's rate to the next's, above 1 and at most {@link #MAX_GROWTH}
 * @param step how long each step of the ramp lasts
 * @param targetRate writes per second to reach
 * @param hold how long the target rate is kept at the end
 */
public record WarmUpSchedule(
    long startRate, double growth, Duration step, long targetRate, Duration hold) {
  /** Firestore's guidance: grow by at most 50 % per step. */
  public static final double MAX_GROWTH = 1.5;

  private static final Duration MIN_STEP = Duration.ofSeconds(1);

  /** @throws IllegalArgumentException naming the option when a value makes no ramp */
  public WarmUpSchedule {
    if (startRate < 1) {
      throw new IllegalArgumentException("--start-rate must be at least 1, not " + startRate);
    }
    if (targetRate < 1) {
      throw new IllegalArgumentException("--target-rate must be at least 1, not " + targetRate);
    }
    if (!(growth > 1)) {
      throw new IllegalArgumentException("--growth must be above 1, not " + growth);
    }
    if (growth > MAX_GROWTH) {
      throw new IllegalArgumentException(
          "--growth must be at most "
              + MAX_GROWTH
              + ", not "
              + growth
              + ": Firestore advises growing new traffic by at most 50 % every 5 minutes");
    }
    if (step.compareTo(MIN_STEP) < 0) {
      throw new IllegalArgumentException("--step must be at least 1s, not " + step);
    }
    if (hold.compareTo(MIN_STEP) < 0) {
      throw new IllegalArgumentException("--hold must be at least 1s, not " + hold);
    }
  }

  /** One step: a rate kept for a while. */
  public record Step(long rate, Duration duration) {
    /** The writes of this step: its rate times its duration, rounded down. */
    public long writes() {
      return rate * duration.toMillis() / 1000;
    }
  }

  /** The steps in order: the ramp's, then the hold at the target rate. */
  public List<Step> steps() {
    List<Step> steps = new ArrayList<>();
    double rate = startRate;
    while (rate < targetRate) {
      steps.add(new Step((long) rate, step));
      rate *= growth;
    }
    steps.add(new Step(targetRate, hold));
    return steps;
  }

  /** The writes of all steps. */
  public long plannedWrites() {
    return steps().stream().mapToLong(Step::writes).sum();
  }

  /** How long all steps take. */
  public Duration total() {
    return steps().stream().map(Step::duration).reduce(Duration.ZERO, Duration::plus);
  }

  /** The schedule for people: one line per step, then the totals. */
  public List<String> describe() {
    List<String> lines = new ArrayList<>();
    List<Step> steps = steps();
    for (int i = 0; i < steps.size(); i++) {
      Step s = steps.get(i);
      lines.add(
          String.format(
              "step %d of %d: %d writes/s for %s (%d writes)%s",
              i + 1,
              steps.size(),
              s.rate(),
              WarmUpMain.format(s.duration()),
              s.writes(),
              i == steps.size() - 1 ? ", hold" : ""));
    }
    lines.add(
        String.format(
            "total: %d writes in %s", plannedWrites(), WarmUpMain.format(total())));
    return lines;
  }
}
