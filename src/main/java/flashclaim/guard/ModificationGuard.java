package flashclaim.guard;

import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

/**
 * The modification guard (docs/design.md): at most one request at a time modifies a {@link
 * GuardedResource}, across all instances; a concurrent one is told to come back instead of waiting.
 *
 * <p>Entering creates the guard document (create-if-absent: of concurrent requests exactly one
 * wins). A guard that exists but is past its expiry was left by a request that never released it
 * (its instance was killed): it is deleted with a precondition on the version that was read, so of
 * several requests that find it stale only one removes it and none removes a fresh guard created
 * meanwhile; then the create is tried once more. Leaving deletes only the version this request
 * created. A request that outlives the TTL may thus lose its guard to another request; its own
 * leave then finds another version and deletes nothing.
 *
 * <p>The expiry is written by the entering instance's clock and judged by the others': clocks must
 * agree to well within the TTL.
 */
@Singleton
@Requires(bean = GuardStore.class)
public final class ModificationGuard {
  private static final int ATTEMPTS = 2;

  private final GuardStore store;
  private final GuardConfig config;
  private final Clock clock;
  private final LongAdder conflicts = new LongAdder();

  ModificationGuard(GuardStore store, GuardConfig config, Clock clock) {
    this.store = store;
    this.config = config;
    this.clock = clock;
  }

  /**
   * Tries once (plus once after removing a stale guard) to enter the resource; never waits.
   *
   * @throws flashclaim.StoreException when the store fails
   */
  public GuardEntry enter(GuardedResource resource) {
    String lockId = resource.lockId();
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      Instant now = clock.instant();
      Optional<Instant> created = store.create(lockId, now.plus(config.ttl()));
      if (created.isPresent()) {
        return new GuardEntry.Entered(new Guard(lockId, created.get()));
      }
      Optional<GuardStore.Holder> holder = store.read(lockId);
      if (holder.isPresent() && holder.get().expiresAt().isAfter(now)) {
        conflicts.increment();
        return new GuardEntry.Busy(config.retryAfter());
      }
      // Released between the create and the read (nothing to remove), or stale: remove exactly the
      // version that was read; if another request removed or replaced it first, this does nothing.
      holder.ifPresent(stale -> store.deleteIf(lockId, stale.version()));
    }
    conflicts.increment();
    return new GuardEntry.Busy(config.retryAfter());
  }

  /** Requests so far that found their resource guarded (answered 409), for metrics. */
  public long conflictCount() {
    return conflicts.sum();
  }

  /**
   * Releases a guard this request holds, if it still does.
   *
   * @return false when the guard had been taken over as stale (nothing was deleted)
   * @throws flashclaim.StoreException when the store fails; the guard then stays until its TTL
   */
  public boolean leave(Guard guard) {
    return store.deleteIf(guard.lockId(), guard.version());
  }
}
