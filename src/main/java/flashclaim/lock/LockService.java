package flashclaim.lock;

import flashclaim.Sha256;
import flashclaim.StoreException;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per-key locks across every instance that shares the store: {@link #runWithLock} runs an action
 * while no one else, on any instance, runs an action under the same key. Different keys do not wait
 * for each other. The algorithm is written once here; a store provides the atomic steps of {@link
 * LockStore}.
 *
 * <ol>
 *   <li><b>Acquire.</b> Read the key's record (a plain read: on the emulator a read inside a
 *       transaction would lock the document, and contended transactions ran at about 4 per second).
 *       No record: create it (create-if-absent) with fencing token 1. Free or expired: take it over
 *       with the token + 1, conditional on the record being unchanged since the read. Of any number
 *       of instances that saw the same record, exactly one write succeeds; the others re-read.
 *   <li><b>Wait.</b> While someone else holds an unexpired lease, pause and retry: pauses grow
 *       from {@code backoff-min} by doubling up to {@code backoff-max}, each a random length (jitter)
 *       so that waiters do not retry in step, until the wait timeout; then the outcome is {@link
 *       LockOutcome.NotAcquired}, a value.
 *   <li><b>Renew.</b> While the action runs, a scheduled task (on {@code renewal-threads} threads
 *       shared by all locks of the instance) moves the lease's end forward every {@code lease ×
 *       renewal-fraction}, conditional on the record being as this holder last wrote it. A
 *       renewal that finds the record changed means the lease ran out and someone took over: the
 *       holder marks itself lost ({@link HeldLock#isLost()}) and stops renewing.
 *   <li><b>Release</b>, in finally: mark the record free, conditional the same way, so a holder
 *       that was taken over cannot release its successor's lock. The record is kept, with its
 *       fencing token, so that the token never starts again at 1.
 *   <li><b>Takeover.</b> A holder that dies (killed process, lost network) stops renewing; once
 *       its lease has run out, the next acquirer takes the lock over as in step 1.
 * </ol>
 *
 * <p>Expiry compares the instance's clock with the lease end written by another instance's clock:
 * instances' clocks must agree to well within the lease. The fencing token handed to the action
 * makes that, and a holder paused past its lease, detectable by whatever the action writes to.
 */
@Singleton
public class LockService {
  private static final Logger LOG = LoggerFactory.getLogger(LockService.class);
  /** The largest doubling of the back-off, far beyond any configured maximum. */
  private static final int MAX_DOUBLINGS = 30;

  private final LockStore store;
  private final LockConfig config;
  private final Clock clock;
  private final ScheduledThreadPoolExecutor renewals;
  private final LongAdder waited = new LongAdder();
  private final LongAdder notAcquired = new LongAdder();

  public LockService(LockStore store, LockConfig config, Clock clock) {
    this.store = store;
    this.config = config;
    this.clock = clock;
    AtomicInteger n = new AtomicInteger();
    this.renewals =
        new ScheduledThreadPoolExecutor(
            config.renewalThreads(),
            r -> {
              Thread t = new Thread(r, "lock-renewal-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    renewals.setRemoveOnCancelPolicy(true);
  }

  @PreDestroy
  void close() {
    renewals.shutdownNow();
  }

  /** Acquisitions so far that found the lock held and had to wait for it (for metrics). */
  public long waitedCount() {
    return waited.sum();
  }

  /** Calls so far that waited their whole wait timeout in vain ({@code NotAcquired}). */
  public long notAcquiredCount() {
    return notAcquired.sum();
  }

  /** The configured lease and wait timeout. */
  public LockOptions defaults() {
    return new LockOptions(config.lease(), config.waitTimeout());
  }

  /** The id of the lock record of {@code key}: SHA-256 of the key, 64 hex characters. */
  public static String lockId(String key) {
    return Sha256.hex(key);
  }

  /**
   * Runs {@code action} while holding the lock of {@code key}, waiting for it up to {@code
   * options.waitTimeout()}, and releases the lock when the action ends, however it ends.
   *
   * @return {@link LockOutcome.Ran} with the action's result and fencing token, or {@link
   *     LockOutcome.NotAcquired} when someone else held the lock for the whole wait (also when the
   *     thread is interrupted while waiting; its interrupt flag stays set)
   * @throws StoreException when the store fails while acquiring; failures to renew or release are
   *     logged, not thrown, since the lease then simply runs out
   */
  public <T> LockOutcome<T> runWithLock(String key, LockOptions options, LockedAction<T> action) {
    Instant started = clock.instant();
    Optional<LockStore.Lease> acquired = acquire(lockId(key), options, started);
    if (acquired.isEmpty()) {
      notAcquired.increment();
      return new LockOutcome.NotAcquired<>(Duration.between(started, clock.instant()));
    }
    Holding holding = new Holding(key, acquired.get(), options.lease());
    long every = Math.max(1, (long) (options.lease().toMillis() * config.renewalFraction()));
    T result;
    try {
      holding.renewal =
          renewals.scheduleWithFixedDelay(holding::renew, every, every, TimeUnit.MILLISECONDS);
      result = action.run(holding);
    } finally {
      holding.release();
    }
    return new LockOutcome.Ran<>(result, holding.fencingToken(), holding.isLost());
  }

  private Optional<LockStore.Lease> acquire(String lockId, LockOptions options, Instant started) {
    Instant deadline = started.plus(options.waitTimeout());
    String owner = UUID.randomUUID().toString();
    for (int attempt = 0; ; attempt++) {
      Optional<LockStore.LockState> seen = store.read(lockId);
      Instant now = clock.instant();
      Instant until = now.plus(options.lease());
      Optional<LockStore.Lease> taken;
      if (seen.isEmpty()) {
        taken = store.create(lockId, owner, until);
      } else if (seen.get().isFreeAt(now)) {
        taken = store.takeOver(seen.get(), owner, until);
      } else {
        taken = Optional.empty();
      }
      if (taken.isPresent()) {
        if (attempt > 0) {
          waited.increment();
        }
        return taken;
      }
      Duration left = Duration.between(clock.instant(), deadline);
      if (left.compareTo(Duration.ZERO) <= 0) {
        return Optional.empty();
      }
      Duration pause = backoff(attempt);
      try {
        Thread.sleep(Math.max(1, Math.min(pause.toMillis(), left.toMillis())));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Optional.empty();
      }
    }
  }

  /** A random pause between {@code backoff-min} and {@code backoff-min × 2^attempt}, capped. */
  private Duration backoff(int attempt) {
    long min = config.backoffMin().toNanos();
    long max = config.backoffMax().toNanos();
    int doublings = Math.min(attempt, MAX_DOUBLINGS);
    long ceiling = min > (max >> doublings) ? max : min << doublings;
    return Duration.ofNanos(ThreadLocalRandom.current().nextLong(min, ceiling + 1));
  }

  /**
   * One acquisition while its action runs. Renewal (on a renewal thread) and release (on the
   * action's thread) both write conditionally on the lease this object holds, so they run one at
   * a time under its monitor: each sees the version the other wrote. A renewal that comes after
   * the release finds {@code done} and writes nothing.
   */
  private final class Holding implements HeldLock {
    private final String key;
    private final Duration leaseLength;
    private final long fencingToken;
    private LockStore.Lease lease; // guarded by this
    private boolean done; // guarded by this
    private volatile boolean lost;
    private volatile ScheduledFuture<?> renewal;

    Holding(String key, LockStore.Lease lease, Duration leaseLength) {
      this.key = key;
      this.lease = lease;
      this.leaseLength = leaseLength;
      this.fencingToken = lease.fencingToken();
    }

    @Override
    public String key() {
      return key;
    }

    @Override
    public long fencingToken() {
      return fencingToken;
    }

    @Override
    public boolean isLost() {
      return lost;
    }

    synchronized void renew() {
      if (done || lost) {
        return;
      }
      try {
        Optional<LockStore.Lease> renewed = store.renew(lease, clock.instant().plus(leaseLength));
        if (renewed.isPresent()) {
          lease = renewed.get();
        } else {
          lost = true;
          ScheduledFuture<?> scheduled = renewal;
          if (scheduled != null) {
            scheduled.cancel(false);
          }
          LOG.warn("lock {} (token {}) was taken over before its renewal", lease.lockId(), fencingToken);
        }
      } catch (RuntimeException e) {
        // The next tick tries again; if the store stays away past the lease, the lock is lost.
        LOG.warn("could not renew lock {} (token {}): {}", lease.lockId(), fencingToken, e.getMessage());
      }
    }

    void release() {
      ScheduledFuture<?> scheduled = renewal;
      if (scheduled != null) {
        scheduled.cancel(false);
      }
      synchronized (this) {
        done = true;
        if (lost) {
          return;
        }
        try {
          if (!store.release(lease, clock.instant())) {
            lost = true;
            LOG.warn("lock {} (token {}) was taken over before its release", lease.lockId(), fencingToken);
          }
        } catch (StoreException e) {
          LOG.warn("could not release lock {} (token {}); it expires at {}: {}",
              lease.lockId(), fencingToken, lease.lockedUntil(), e.getMessage());
        }
      }
    }
  }
}
