package flashclaim.metrics;

import flashclaim.guard.ModificationGuard;
import flashclaim.lock.LockService;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micronaut.context.BeanProvider;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;

/**
 * Meters of the coordination between requests and instances: per-key lock waits and timeouts
 * ({@value #LOCK_WAITS}, {@value #LOCK_TIMEOUTS}) and the modification guard's 409s ({@value
 * #GUARD_CONFLICTS}). They read the counters the core keeps, so the core needs no metrics library.
 */
@Singleton
@Requires(beans = MeterRegistry.class)
final class CoordinationMeters implements MeterBinder {
  static final String LOCK_WAITS = "flashclaim.lock.waits";
  static final String LOCK_TIMEOUTS = "flashclaim.lock.timeouts";
  static final String GUARD_CONFLICTS = "flashclaim.guard.conflicts";

  // Providers, read at each scrape: the store beans behind these services are built after the
  // meter registry (the Firestore client takes gRPC metrics interceptors from it).
  private final BeanProvider<LockService> locks;
  private final BeanProvider<ModificationGuard> guard;

  CoordinationMeters(BeanProvider<LockService> locks, BeanProvider<ModificationGuard> guard) {
    this.locks = locks;
    this.guard = guard;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    if (locks.isPresent()) {
      FunctionCounter.builder(LOCK_WAITS, locks, l -> l.get().waitedCount())
          .description("lock acquisitions that found the lock held and waited for it")
          .register(registry);
      FunctionCounter.builder(LOCK_TIMEOUTS, locks, l -> l.get().notAcquiredCount())
          .description("lock acquisitions that gave up after the wait timeout (503 busy)")
          .register(registry);
    }
    if (guard.isPresent()) {
      FunctionCounter.builder(GUARD_CONFLICTS, guard, g -> g.get().conflictCount())
          .description("modifications answered 409 concurrent-modification")
          .register(registry);
    }
  }
}
