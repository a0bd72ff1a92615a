package flashclaim.admission;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A {@link WaitTimer} on one daemon thread. Cancelled actions leave its queue at once, so it holds
 * at most one action per waiting claim.
 */
final class ScheduledWaitTimer implements WaitTimer, AutoCloseable {
  private final ScheduledThreadPoolExecutor executor;

  ScheduledWaitTimer() {
    executor =
        new ScheduledThreadPoolExecutor(
            1,
            runnable -> {
              Thread thread = new Thread(runnable, "admission-timer");
              thread.setDaemon(true);
              return thread;
            });
    executor.setRemoveOnCancelPolicy(true);
  }

  @Override
  public Runnable schedule(Duration delay, Runnable action) {
    ScheduledFuture<?> scheduled =
        executor.schedule(action, Math.max(0, delay.toNanos()), TimeUnit.NANOSECONDS);
    return () -> scheduled.cancel(false);
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
