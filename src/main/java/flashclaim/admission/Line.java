package flashclaim.admission;

import java.time.Instant;
import java.util.Comparator;
import java.util.Iterator;
import java.util.TreeSet;

/**
 * The claims waiting for a slot, in order of first arrival (ties in the order they came), and how
 * many of them wait before a given claim or a given first arrival.
 *
 * <p>Every refusal and every wait asks for a claim's place, under the admission's lock, on the
 * event loop. Walking the line to count it took time proportional to the claims waiting (up to
 * {@code max-queued}, 900), and under W8's overload those walks were 8 % of one instance's CPU
 * samples. So the line also counts its first arrivals in buckets of {@value
 * ArrivalRanks#BUCKET_MS} ms ({@link ArrivalRanks}): a place is the count of the buckets before its
 * own, in time logarithmic in the span of arrivals, plus the claims of its own bucket before it,
 * read from the line itself: exact, whatever the number waiting. (While an arrival lies beyond the
 * buckets' span of almost six hours, which a ticket's lifetime keeps away, places are counted by
 * the walk.)
 *
 * <p>Not thread-safe: {@link FairAdmission} uses it under its lock.
 */
final class Line<W extends Line.Place> implements Iterable<W> {
  /** What a claim in line is ordered by. */
  interface Place {
    /** The first arrival of the claim's user. */
    Instant arrival();

    /** The order it came in, among claims of the same first arrival. */
    long sequence();
  }

  /** A bound of a part of the line, never in it. */
  private record Bound(Instant arrival, long sequence) implements Place {}

  private static final Comparator<Place> ORDER =
      (a, b) -> {
        int byArrival = a.arrival().compareTo(b.arrival());
        return byArrival != 0 ? byArrival : Long.compare(a.sequence(), b.sequence());
      };

  /** Only {@code W}s are ever added; {@link Bound}s only bound views of it. */
  private final TreeSet<Place> waiting = new TreeSet<>(ORDER);

  private ArrivalRanks ranks = new ArrivalRanks();

  void add(W claim) {
    if (waiting.add(claim)) {
      ranks.add(claim.arrival());
    }
  }

  /** Whether {@code claim} was in line; it no longer is. */
  boolean remove(W claim) {
    if (!waiting.remove(claim)) {
      return false;
    }
    ranks.remove(claim.arrival());
    return true;
  }

  /** The earliest claim, taken out of the line; null when none waits. */
  W pollFirst() {
    return removed(waiting.pollFirst());
  }

  /** The latest claim, taken out of the line; null when none waits. */
  W pollLast() {
    return removed(waiting.pollLast());
  }

  void clear() {
    waiting.clear();
    ranks = new ArrivalRanks();
  }

  W first() {
    return cast(waiting.first());
  }

  W last() {
    return cast(waiting.last());
  }

  int size() {
    return waiting.size();
  }

  boolean isEmpty() {
    return waiting.isEmpty();
  }

  boolean contains(W claim) {
    return waiting.contains(claim);
  }

  /** How many claims wait before {@code claim}, which waits. */
  int before(W claim) {
    if (waiting.last() == claim) {
      return waiting.size() - 1; // the common case: a claim that came last
    }
    return countTo(claim, false);
  }

  /** How many claims wait that first arrived no later than {@code arrival}. */
  int noLaterThan(Instant arrival) {
    if (waiting.isEmpty() || !waiting.last().arrival().isAfter(arrival)) {
      return waiting.size();
    }
    return countTo(new Bound(arrival, Long.MAX_VALUE), true);
  }

  /**
   * How many claims wait before {@code bound} (and at it, if {@code inclusive}): the buckets
   * before its own, and the claims of its own bucket read from the line; the whole head read
   * while an arrival lies beyond the buckets.
   */
  private int countTo(Place bound, boolean inclusive) {
    if (ranks.clamped()) {
      return waiting.headSet(bound, inclusive).size();
    }
    return ranks.before(bound.arrival())
        + waiting.subSet(bucketStart(bound.arrival()), true, bound, inclusive).size();
  }

  /** The claims in order; the line must not change while it is iterated. */
  @Override
  public Iterator<W> iterator() {
    Iterator<Place> places = waiting.iterator();
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return places.hasNext();
      }

      @Override
      public W next() {
        return cast(places.next());
      }
    };
  }

  /** The first place of the bucket of {@code arrival}, as {@link ArrivalRanks} buckets it. */
  private static Bound bucketStart(Instant arrival) {
    long bucket = arrival.toEpochMilli() / ArrivalRanks.BUCKET_MS;
    return new Bound(Instant.ofEpochMilli(bucket * ArrivalRanks.BUCKET_MS), Long.MIN_VALUE);
  }

  private W removed(Place place) {
    if (place == null) {
      return null;
    }
    ranks.remove(place.arrival());
    return cast(place);
  }

  @SuppressWarnings("unchecked")
  private static <W> W cast(Place place) {
    return (W) place;
  }
}
