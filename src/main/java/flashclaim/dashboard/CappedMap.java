package flashclaim.dashboard;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Per-campaign state with a cap: when a new key would exceed {@code cap} entries, the entry used
 * the longest ago is dropped first. Lookups of present keys are plain {@link ConcurrentHashMap}
 * reads; only the creation of a new entry at the cap scans the map (O(cap)). Concurrent creations
 * may overshoot the cap by the number of racing threads, never more.
 */
final class CappedMap<K, V> {
  private final int cap;
  private final ToLongFunction<V> lastUsed;
  private final ConcurrentHashMap<K, V> entries = new ConcurrentHashMap<>();

  CappedMap(int cap, ToLongFunction<V> lastUsed) {
    this.cap = cap;
    this.lastUsed = lastUsed;
  }

  V get(K key) {
    return entries.get(key);
  }

  V getOrCreate(K key, Function<K, V> create) {
    V present = entries.get(key);
    if (present != null) {
      return present;
    }
    while (entries.size() >= cap) {
      entries.entrySet().stream()
          .filter(e -> !e.getKey().equals(key))
          .min(Comparator.comparingLong(e -> lastUsed.applyAsLong(e.getValue())))
          .ifPresentOrElse(e -> entries.remove(e.getKey(), e.getValue()), entries::clear);
    }
    return entries.computeIfAbsent(key, create);
  }

  /** The entries, the most recently used first. */
  List<Map.Entry<K, V>> newestFirst(int limit) {
    return entries.entrySet().stream()
        .sorted(
            Comparator.comparingLong((Map.Entry<K, V> e) -> lastUsed.applyAsLong(e.getValue()))
                .reversed())
        .limit(limit)
        .map(e -> Map.entry(e.getKey(), e.getValue()))
        .toList();
  }

  int size() {
    return entries.size();
  }
}
