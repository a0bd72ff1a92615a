package flashclaim.admission;

import flashclaim.testing.MovableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** A timer that fires only when told, by a movable clock. */
final class ManualTimer implements WaitTimer {
  private final List<Scheduled> scheduled = new ArrayList<>();
  private final MovableClock clock;

  ManualTimer(MovableClock clock) {
    this.clock = clock;
  }

  private record Scheduled(Instant due, Runnable action, boolean[] cancelled) {}

  @Override
  public synchronized Runnable schedule(Duration delay, Runnable action) {
    Scheduled s = new Scheduled(clock.instant().plus(delay), action, new boolean[1]);
    scheduled.add(s);
    return () -> {
      synchronized (ManualTimer.this) {
        s.cancelled()[0] = true;
        scheduled.remove(s);
      }
    };
  }

  /** Runs the actions whose time has come by the clock. */
  void fireDue() {
    List<Scheduled> due = new ArrayList<>();
    synchronized (this) {
      for (Scheduled s : scheduled) {
        if (!s.due().isAfter(clock.instant())) {
          due.add(s);
        }
      }
      scheduled.removeAll(due);
    }
    due.forEach(s -> s.action().run());
  }

  /** Actions scheduled and not yet run nor cancelled. */
  synchronized int pending() {
    return scheduled.size();
  }
}
