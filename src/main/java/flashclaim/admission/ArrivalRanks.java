package flashclaim.admission;

import java.time.Instant;

/**
 * How many first arrivals, of those counted, lie before a given one: counts in buckets of {@value
 * #BUCKET_MS} ms of first arrival, summed by a Fenwick tree, so that adding, removing and counting
 * each take time logarithmic in the span of arrivals counted, whatever their number. Arrivals in
 * the same bucket do not count as before one another.
 *
 * <p>The buckets cover the arrivals counted, earlier or later ones alike: the tree doubles, to
 * either side, to cover a new one, up to {@value #MAX_BUCKETS} buckets (almost six hours). An
 * arrival beyond that is counted in the bucket at the end nearest it, and from then until the
 * counts are empty again the buckets stay where they are, so that every arrival is removed from
 * the bucket it was counted in. Memory: four bytes a bucket of the span counted (at most 8 MB); it
 * starts at 4 KB and returns to that when the counts empty. Not thread-safe.
 */
final class ArrivalRanks {
  static final long BUCKET_MS = 10;
  static final int MAX_BUCKETS = 1 << 21;
  private static final int FIRST_SIZE = 1 << 10;

  /** The Fenwick tree of counts per bucket, 1-based: {@code tree[i]} sums a range ending at i. */
  private int[] tree = new int[FIRST_SIZE + 1];
  /** The first bucket's number: first arrival in ms over {@link #BUCKET_MS}. */
  private long base;
  private int total;
  /** Whether an arrival was counted at an end, beyond the buckets: they may not move then. */
  private boolean clamped;

  /** Counts one more first arrival at {@code arrival}. */
  void add(Instant arrival) {
    long bucket = arrival.toEpochMilli() / BUCKET_MS;
    if (total == 0) {
      tree = tree.length == FIRST_SIZE + 1 ? tree : new int[FIRST_SIZE + 1];
      base = bucket - FIRST_SIZE / 4; // room for arrivals a little earlier than the first
      clamped = false;
    }
    int size = tree.length - 1;
    if ((bucket < base || bucket >= base + size) && !clamped) {
      long from = Math.min(base, bucket);
      long to = Math.max(base + size, bucket + 1);
      if (to - from <= MAX_BUCKETS) {
        cover(from, to);
      } else {
        clamped = true;
      }
    }
    update(index(bucket), 1);
    total++;
  }

  /** Counts one first arrival at {@code arrival} less; it must have been added. */
  void remove(Instant arrival) {
    update(index(arrival.toEpochMilli() / BUCKET_MS), -1);
    total--;
  }

  /** How many arrivals counted lie in buckets before that of {@code arrival}. */
  int before(Instant arrival) {
    long bucket = arrival.toEpochMilli() / BUCKET_MS;
    if (total == 0 || bucket <= base) {
      return 0;
    }
    return prefix((int) Math.min(bucket - base, tree.length - 1));
  }

  /** How many arrivals are counted. */
  int size() {
    return total;
  }

  /**
   * Whether an arrival was counted in a bucket at an end, beyond the span the buckets can cover:
   * until the counts empty, the counts near that end are not by bucket.
   */
  boolean clamped() {
    return clamped;
  }

  /** The bucket's index in the tree, at the nearest end if beyond it. */
  private int index(long bucket) {
    return (int) Math.max(0, Math.min(tree.length - 2, bucket - base));
  }

  private void update(int index, int delta) {
    for (int i = index + 1; i < tree.length; i += i & -i) {
      tree[i] += delta;
    }
  }

  /** The count of the first {@code buckets} buckets. */
  private int prefix(int buckets) {
    int sum = 0;
    for (int i = buckets; i > 0; i -= i & -i) {
      sum += tree[i];
    }
    return sum;
  }

  /**
   * Doubles the tree until it covers buckets {@code from} to {@code to} (exclusive), growing
   * towards the side that needs it, and keeps every count.
   */
  private void cover(long from, long to) {
    int oldSize = tree.length - 1;
    int size = oldSize;
    while (size < to - from) {
      size *= 2;
    }
    long newBase = from < base ? to - size : base;
    int[] counts = new int[oldSize];
    for (int i = 0; i < oldSize; i++) {
      counts[i] = prefix(i + 1) - prefix(i);
    }
    int shift = (int) (base - newBase);
    tree = new int[size + 1];
    for (int i = 0; i < oldSize; i++) {
      if (counts[i] != 0) {
        update(i + shift, counts[i]);
      }
    }
    base = newBase;
  }
}
