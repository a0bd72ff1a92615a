package flashclaim.lock;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * Tunables of the per-key lock ({@code flashclaim.lock.*}).
 *
 * @param lease how long an acquisition holds the lock without renewal: the longest a crashed
 *     holder blocks the key. The holder renews it while its action runs.
 * @param waitTimeout how long {@link LockService#runWithLock} waits for a held lock by default
 *     before it answers {@link LockOutcome.NotAcquired}
 * @param backoffMin the shortest pause between two attempts to take a held lock
 * @param backoffMax the longest pause: pauses grow from {@code backoffMin} by doubling up to this,
 *     each a random length between {@code backoffMin} and its ceiling (jitter), so that waiters on
 *     several instances do not retry in step
 * @param renewalFraction a running action's lease is renewed every {@code lease × renewalFraction};
 *     below 1 so that a renewal or two may fail (a slow store) before the lease runs out
 * @param renewalThreads threads, per instance, that renew the leases of all running actions
 */
@ConfigurationProperties("flashclaim.lock")
public record LockConfig(
    @Bindable(defaultValue = "10s") Duration lease,
    @Bindable(defaultValue = "5s") Duration waitTimeout,
    @Bindable(defaultValue = "20ms") Duration backoffMin,
    @Bindable(defaultValue = "500ms") Duration backoffMax,
    @Bindable(defaultValue = "0.33") double renewalFraction,
    @Bindable(defaultValue = "2") int renewalThreads) {

  public LockConfig {
    if (lease.compareTo(Duration.ZERO) <= 0 || waitTimeout.isNegative()) {
      throw new IllegalArgumentException(
          "flashclaim.lock.lease must be positive and flashclaim.lock.wait-timeout not negative");
    }
    if (backoffMin.compareTo(Duration.ZERO) <= 0 || backoffMax.compareTo(backoffMin) < 0) {
      throw new IllegalArgumentException(
          "flashclaim.lock.backoff-min must be positive and at most flashclaim.lock.backoff-max");
    }
    if (!(renewalFraction > 0) || renewalThreads < 1) {
      throw new IllegalArgumentException(
          "flashclaim.lock.renewal-fraction must be positive and renewal-threads at least 1");
    }
  }
}
