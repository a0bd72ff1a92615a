package flashclaim;

import com.github.benmanes.caffeine.cache.Expiry;
import java.time.Instant;
import java.util.function.Function;

/**
 * A Caffeine expiry that forgets each entry at the instant its value names, set again when the
 * value is replaced and kept when it is read. The cache's ticker must count {@link #nanos} of the
 * same clock.
 */
public final class ExpireAt<K, V> implements Expiry<K, V> {
  private final Function<V, Instant> at;

  public ExpireAt(Function<V, Instant> at) {
    this.at = at;
  }

  /** Nanoseconds since the epoch: what the cache's ticker reads. */
  public static long nanos(Instant instant) {
    return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
  }

  @Override
  public long expireAfterCreate(K key, V value, long currentTime) {
    return Math.max(0, nanos(at.apply(value)) - currentTime);
  }

  @Override
  public long expireAfterUpdate(K key, V value, long currentTime, long currentDuration) {
    return Math.max(0, nanos(at.apply(value)) - currentTime);
  }

  @Override
  public long expireAfterRead(K key, V value, long currentTime, long currentDuration) {
    return currentDuration;
  }
}
