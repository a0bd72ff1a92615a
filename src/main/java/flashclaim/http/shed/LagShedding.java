package flashclaim.http.shed;

import flashclaim.admission.FairAdmission;
import flashclaim.admission.SlotCeiling;
import flashclaim.http.HttpConfig;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Requires;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * Lowers the claims' {@link SlotCeiling} while the event loops run late, and lifts it again once
 * they are on time ({@code flashclaim.http.lag-shed.*}).
 *
 * <p>A request the instance has not read yet waits in its socket, where no admission sees it and
 * its place in line is not taken; when the cores cannot keep up with reading, it is read late and
 * out of order. The adaptive limit does not see this: it follows the store's latency. Each claim
 * that runs costs the instance (and a store on the same cores) far more than reading and refusing
 * one, so fewer claims at once give reading the cores back: the line then drains more slowly, and
 * every user is told so, in the order they arrived.
 *
 * <p>Every {@code flashclaim.http.lag-probe-interval}: above {@code target}, while the admission
 * has refused a claim within the last {@code hold} (the instance is overloaded), the ceiling
 * becomes {@code keep} of the claims allowed at once (at least {@code min-slots}), at most once
 * per {@code hold}; at or below it, one slot more, until the ceiling reaches the adaptive limit
 * and is gone. With {@code enabled=false} the ceiling is never set.
 */
@Context
@Singleton
@Requires(beans = EventLoopLag.class)
final class LagShedding implements MeterBinder {
  static final String CEILING = "flashclaim.admission.slot.ceiling";

  private final DoubleSupplier behindSeconds;
  private final LongSupplier refusals;
  private final SlotCeiling ceiling;
  private final LagShedConfig config;
  private final long holdNanos;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          runnable -> {
            Thread thread = new Thread(runnable, "lag-shedding");
            thread.setDaemon(true);
            return thread;
          });
  private long lastCut = Long.MIN_VALUE / 2;
  private long refusedBefore;
  private long lastRefusal = Long.MIN_VALUE / 2;

  @Inject
  LagShedding(
      EventLoopLag lag,
      FairAdmission admission,
      SlotCeiling ceiling,
      LagShedConfig config,
      HttpConfig http) {
    this(lag::behindSeconds, admission::refused, ceiling, config);
    if (config.enabled()) {
      long every = Math.max(1, http.lagProbeInterval().toNanos());
      timer.scheduleWithFixedDelay(
          () -> step(behindSeconds.getAsDouble(), System.nanoTime()),
          every,
          every,
          TimeUnit.NANOSECONDS);
    }
  }

  /**
   * The control alone, stepped by the caller ({@link #step}), {@code refusals} the claims the
   * admission has refused so far.
   */
  LagShedding(
      DoubleSupplier behindSeconds,
      LongSupplier refusals,
      SlotCeiling ceiling,
      LagShedConfig config) {
    this.behindSeconds = behindSeconds;
    this.refusals = refusals;
    this.ceiling = ceiling;
    this.config = config;
    this.holdNanos = config.hold().toNanos();
  }

  /**
   * One step of the control, the loops {@code behindSeconds} late at {@code nowNanos}: a cut while
   * they are late and the admission refuses claims (at most once per hold), a slot more while they
   * are on time. Late loops without refusals (a compiler or collector pause, a burst the line
   * absorbs) are left alone: cutting then would only make admitted claims wait.
   */
  void step(double behindSeconds, long nowNanos) {
    long refused = refusals.getAsLong();
    if (refused != refusedBefore) {
      refusedBefore = refused;
      lastRefusal = nowNanos;
    }
    int now = ceiling.ceiling();
    if (behindSeconds * 1e9 > config.target().toNanos()) {
      if (nowNanos - lastCut >= holdNanos && nowNanos - lastRefusal <= holdNanos) {
        int allowed = Math.min(now, ceiling.adaptiveLimit());
        ceiling.set(Math.max(config.minSlots(), (int) Math.floor(allowed * config.keep())));
        lastCut = nowNanos;
      }
    } else if (now != SlotCeiling.NONE) {
      ceiling.set(now + 1 >= ceiling.adaptiveLimit() ? SlotCeiling.NONE : now + 1);
    }
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    Gauge.builder(CEILING, ceiling, c -> c.ceiling() == SlotCeiling.NONE ? Double.NaN : c.ceiling())
        .description(
            "the ceiling over the claims' adaptive limit while the event loops run late (NaN: none)")
        .register(registry);
  }

  @PreDestroy
  void stop() {
    timer.shutdownNow();
  }
}
