package flashclaim.admission;

import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * The places promised to refused claims: a claim told to come back after its Retry-After keeps,
 * until a grace after it, a place by its user's first arrival, which later arrivals count as ahead
 * of them. Kept per second of first arrival (claims of the same second are not ordered among
 * themselves), at most {@code max} in all; not thread-safe ({@link FairAdmission} holds its lock).
 */
final class Promises {
  private final int max;
  private final Duration grace;
  private final TreeMap<Long, Bucket> bySecond = new TreeMap<>();
  private int size;

  /** The promises of one second of first arrivals, and when the last of them lapses. */
  private static final class Bucket {
    int count;
    Instant lapsesAt;
  }

  Promises(int max, Duration grace) {
    this.max = max;
    this.grace = grace;
  }

  /** A claim whose user first arrived at {@code arrival} is told to come back at {@code due}. */
  void promise(Instant arrival, Instant due) {
    if (size >= max) {
      return; // a hard bound; the claim keeps its ticket, only its place here is not held
    }
    Bucket bucket = bySecond.computeIfAbsent(arrival.getEpochSecond(), second -> new Bucket());
    bucket.count++;
    Instant lapsesAt = due.plus(grace);
    if (bucket.lapsesAt == null || lapsesAt.isAfter(bucket.lapsesAt)) {
      bucket.lapsesAt = lapsesAt;
    }
    size++;
  }

  /** A claim that was promised a place by {@code arrival} came back: the place is taken up. */
  void keep(Instant arrival) {
    Bucket bucket = bySecond.get(arrival.getEpochSecond());
    if (bucket != null) {
      size--;
      if (--bucket.count == 0) {
        bySecond.remove(arrival.getEpochSecond());
      }
    }
  }

  /** Promises still held at {@code now} for users who first arrived in an earlier second. */
  int before(Instant arrival, Instant now) {
    long second = arrival.getEpochSecond();
    int before = 0;
    Iterator<Map.Entry<Long, Bucket>> buckets = bySecond.entrySet().iterator();
    while (buckets.hasNext()) {
      Map.Entry<Long, Bucket> entry = buckets.next();
      Bucket bucket = entry.getValue();
      if (!bucket.lapsesAt.isAfter(now)) {
        size -= bucket.count;
        buckets.remove();
      } else if (entry.getKey() < second) {
        before += bucket.count;
      }
    }
    return before;
  }

  /** Promises still held at {@code now}. */
  int size(Instant now) {
    before(Instant.MIN, now); // drops the lapsed ones
    return size;
  }
}
