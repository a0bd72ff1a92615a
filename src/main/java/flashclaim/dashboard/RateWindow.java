package flashclaim.dashboard;

/**
 * Events per second over a sliding window of whole seconds: a ring of per-second buckets, so its
 * memory is fixed whatever the rate. The rate counts the last {@code seconds} complete seconds
 * (the running second is left out, it would read low), so it lags by up to one second.
 */
final class RateWindow {
  private final int seconds;
  private final long[] counts;
  private final long[] stamps;

  RateWindow(int seconds) {
    this.seconds = seconds;
    this.counts = new long[seconds + 1];
    this.stamps = new long[seconds + 1];
    java.util.Arrays.fill(stamps, Long.MIN_VALUE);
  }

  /** One event in the second {@code epochSecond}. */
  synchronized void record(long epochSecond) {
    int slot = slot(epochSecond);
    if (stamps[slot] != epochSecond) {
      stamps[slot] = epochSecond;
      counts[slot] = 0;
    }
    counts[slot]++;
  }

  /** Events per second in the {@code seconds} complete seconds before {@code nowSecond}. */
  synchronized double perSecond(long nowSecond) {
    long sum = 0;
    for (int i = 0; i < counts.length; i++) {
      if (stamps[i] < nowSecond && stamps[i] >= nowSecond - seconds) {
        sum += counts[i];
      }
    }
    return (double) sum / seconds;
  }

  private int slot(long epochSecond) {
    return (int) Math.floorMod(epochSecond, (long) counts.length);
  }
}
