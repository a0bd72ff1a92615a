package flashclaim.http.shed;

import flashclaim.http.HttpConfig;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micronaut.context.annotation.Requires;
import io.micronaut.http.netty.channel.EventLoopGroupRegistry;
import io.netty.util.concurrent.EventExecutor;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToLongFunction;

/**
 * How far the server's event loops fall behind ({@value #LAG}): each loop runs a probe every
 * {@code flashclaim.http.lag-probe-interval}, and the probe notes how late it ran. A request that
 * arrives on a late loop waits that long before any filter stamps its arrival, so this is the part
 * of a client's wait that the service's own timings do not show. The gauge is the largest lateness
 * of the latest probe of every loop, in seconds.
 */
@Singleton
@Requires(beans = EventLoopGroupRegistry.class)
final class EventLoopLag implements MeterBinder {
  static final String LAG = "flashclaim.http.event.loop.lag";

  private final List<Probe> probes = new ArrayList<>();
  private final long intervalNanos;
  private volatile boolean stopped;

  EventLoopLag(EventLoopGroupRegistry loops, HttpConfig config) {
    this.intervalNanos = Math.max(1, config.lagProbeInterval().toNanos());
    for (EventExecutor loop : loops.getDefaultEventLoopGroup()) {
      probes.add(new Probe(loop));
    }
    probes.forEach(Probe::schedule);
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    Gauge.builder(LAG, this, EventLoopLag::lagSeconds)
        .description("how late the latest probe ran on the most behind event loop")
        .baseUnit("seconds")
        .register(registry);
  }

  /** The largest lateness of the latest probe of any loop, in seconds. */
  double lagSeconds() {
    return mostSeconds(probe -> probe.lateNanos.get());
  }

  /**
   * How far behind the most behind loop is now: its latest probe's lateness, or how long its next
   * probe is overdue if that is more (a loop busy since its probe was due).
   */
  double behindSeconds() {
    long now = System.nanoTime();
    return mostSeconds(probe -> probe.behindNanos(now));
  }

  /** The largest of {@code nanos} over the loops' probes, in seconds. */
  private double mostSeconds(ToLongFunction<Probe> nanos) {
    long most = 0;
    for (Probe probe : probes) {
      most = Math.max(most, nanos.applyAsLong(probe));
    }
    return most / 1e9;
  }

  /**
   * How far behind the event loop of the calling thread is now: its probe's lateness, or, if that
   * probe is overdue (the loop has been busy since it was due), how long overdue it is. A request
   * that this loop reads now has waited about that long before any filter saw it. Zero off the
   * event loops.
   */
  Duration currentLoopLag() {
    for (Probe probe : probes) {
      if (probe.loop.inEventLoop()) {
        return Duration.ofNanos(probe.behindNanos(System.nanoTime()));
      }
    }
    return Duration.ZERO;
  }

  @PreDestroy
  void stop() {
    stopped = true;
  }

  /** The probe of one loop: it schedules itself again each time it runs. */
  private final class Probe implements Runnable {
    final EventExecutor loop;
    final AtomicLong lateNanos = new AtomicLong();
    volatile long dueAt;

    Probe(EventExecutor loop) {
      this.loop = loop;
    }

    /** How far behind this loop is at {@code now}: its latest lateness, or how long overdue. */
    long behindNanos(long now) {
      return Math.max(lateNanos.get(), Math.max(0, now - dueAt));
    }

    void schedule() {
      if (stopped || loop.isShuttingDown()) {
        return;
      }
      dueAt = System.nanoTime() + intervalNanos;
      try {
        loop.schedule(this, intervalNanos, TimeUnit.NANOSECONDS);
      } catch (RejectedExecutionException stopping) {
        // the loop shuts down with the server: nothing left to probe
      }
    }

    @Override
    public void run() {
      lateNanos.set(Math.max(0, System.nanoTime() - dueAt));
      schedule();
    }
  }
}
