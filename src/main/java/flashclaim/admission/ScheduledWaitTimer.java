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
    executor = oneDaemonThread("admission-timer");
    executor.setRemoveOnCancelPolicy(true);
  }

  /** A scheduled executor of one daemon thread named {@code name}. */
  static ScheduledThreadPoolExecutor oneDaemonThread(String name) {
    return new ScheduledThreadPoolExecutor(
        1,
        runnable -> {
          Thread thread = new Thread(runnable, name);
          thread.setDaemon(true);
          return thread;
        });
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
