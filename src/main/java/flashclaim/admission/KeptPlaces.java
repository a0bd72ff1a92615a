package flashclaim.admission;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Deque;
import java.util.Map;
import java.util.NavigableMap;
import java.util.PriorityQueue;
import java.util.TreeMap;

/**
 * The places in line of users who were refused and told when to come back, by their first arrival
 * (to the millisecond, as a ticket carries it). A refused user is out of line until then, yet
 * every claim that first arrived later is behind them: counting their places makes the turn, and
 * so the Retry-After, of a later arrival come after theirs, instead of each being told only about
 * the claims that wait at that moment.
 *
 * <p>A place is given up when its user is back (a claim with that first arrival enters), or a
 * while ({@code keepFor}) after the time they were told, whichever comes first; a user who went
 * elsewhere, or away, holds no place for longer than that. At most {@code max} places are kept;
 * when full, the latest arrival gives up its place first. Not thread-safe: {@link FairAdmission}
 * calls it under its lock.
 */
final class KeptPlaces {
  private static final Comparator<Place> BY_EXPIRY = Comparator.comparing(p -> p.expiresAt);

  private final int max;
  private final Duration keepFor;
  /** Live places by first arrival, in epoch milliseconds. */
  private final NavigableMap<Long, Deque<Place>> byArrival = new TreeMap<>();
  /** Every place kept, live or given up, by the time it expires. */
  private final PriorityQueue<Place> byExpiry = new PriorityQueue<>(BY_EXPIRY);
  private int count;

  /**
   * @param max the most places kept at once; 0 keeps none
   * @param keepFor how long after the time its user was told to come back a place is kept
   */
  KeptPlaces(int max, Duration keepFor) {
    this.max = max;
    this.keepFor = keepFor;
  }

  /** Keeps the place of a user who first arrived at {@code arrival}, told to be back at {@code back}. */
  void keep(Instant arrival, Instant back) {
    if (max == 0) {
      return;
    }
    long key = arrival.toEpochMilli();
    if (count >= max) {
      Map.Entry<Long, Deque<Place>> latest = byArrival.lastEntry();
      if (latest.getKey() <= key) {
        return; // every kept place is earlier: this one is the one not kept
      }
      giveUp(latest.getKey(), latest.getValue().peekLast());
    }
    Place place = new Place(key, back.plus(keepFor));
    byArrival.computeIfAbsent(key, k -> new ArrayDeque<>()).addLast(place);
    byExpiry.add(place);
    count++;
    if (byExpiry.size() > 2 * max + 16) {
      byExpiry.removeIf(p -> !p.live); // given-up places that have not expired yet
    }
  }

  /** A claim with first arrival {@code arrival} entered: its user is back, their place is theirs. */
  void returned(Instant arrival) {
    if (count == 0) {
      return;
    }
    long key = arrival.toEpochMilli();
    Deque<Place> places = byArrival.get(key);
    if (places != null) {
      giveUp(key, places.peekFirst());
    }
  }

  /** Gives up the places whose time has passed. */
  void expire(Instant now) {
    for (Place first = byExpiry.peek();
        first != null && !first.expiresAt.isAfter(now);
        first = byExpiry.peek()) {
      byExpiry.poll();
      if (first.live) {
        giveUp(first.arrivalMillis, first);
      }
    }
  }

  /**
   * How many places are kept for users who first arrived before {@code arrival}; in time
   * proportional to the number of distinct arrivals before it, and at once for the latest arrival
   * (the common case: a user who arrives now).
   */
  int before(Instant arrival) {
    if (count == 0) {
      return 0;
    }
    long key = arrival.toEpochMilli();
    if (key > byArrival.lastKey()) {
      return count;
    }
    int before = 0;
    for (Deque<Place> places : byArrival.headMap(key, false).values()) {
      before += places.size();
    }
    return before;
  }

  /** The places kept now. */
  int size() {
    return count;
  }

  private void giveUp(long key, Place place) {
    Deque<Place> places = byArrival.get(key);
    places.remove(place);
    if (places.isEmpty()) {
      byArrival.remove(key);
    }
    place.live = false;
    count--;
  }

  private static final class Place {
    final long arrivalMillis;
    final Instant expiresAt;
    boolean live = true;

    Place(long arrivalMillis, Instant expiresAt) {
      this.arrivalMillis = arrivalMillis;
      this.expiresAt = expiresAt;
    }
  }
}
