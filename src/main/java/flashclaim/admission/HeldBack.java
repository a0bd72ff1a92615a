package flashclaim.admission;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.PriorityQueue;
import java.util.TreeMap;

/**
 * The users this instance told to come back, by first arrival, while they are due: from the moment
 * they were told until {@code grace} after it. A claim of a later arrival than the earliest of
 * them (by more than {@code slack}) is not given a slot while they are due: the capacity that frees
 * up in the moments a refused user is on their way back is theirs, not a later click's. A user who
 * comes back here stops holding anyone back at once; one who comes back to another instance, or
 * not at all, when their grace has passed.
 *
 * <p>First arrivals are kept to the millisecond, as a ticket carries them back; users who arrived
 * in the same millisecond are one entry. Not thread-safe: {@link FairAdmission} calls it under its
 * lock. Memory: at most {@code capacity} users told; beyond that a told user is not remembered
 * (and holds nobody back).
 */
final class HeldBack {
  private record Told(Instant arrival, Instant due) {}

  private final Duration grace;
  private final Duration slack;
  private final int capacity;
  /** Every user told and not yet back, by first arrival, with when they are due. */
  private final Map<Instant, Instant> told = new HashMap<>();
  /** The same, by when they are due: the next to become due first. */
  private final PriorityQueue<Told> byDue =
      new PriorityQueue<>((a, b) -> a.due().compareTo(b.due()));
  /** The users due now (due, and within their grace), by first arrival. */
  private final NavigableMap<Instant, Instant> dueNow = new TreeMap<>();

  HeldBack(Duration grace, Duration slack, int capacity) {
    this.grace = grace;
    this.slack = slack;
    this.capacity = capacity;
  }

  /** A user who first arrived at {@code arrival} was told to come back at {@code due}. */
  void told(Instant firstArrival, Instant due) {
    Instant arrival = key(firstArrival);
    if (told.size() >= capacity && !told.containsKey(arrival)) {
      return;
    }
    Instant before = told.put(arrival, due);
    if (before != null) {
      dueNow.remove(arrival);
    }
    byDue.add(new Told(arrival, due));
  }

  /** A user who first arrived at {@code arrival} came back. */
  void back(Instant firstArrival) {
    Instant arrival = key(firstArrival);
    if (told.remove(arrival) != null) {
      dueNow.remove(arrival);
    }
  }

  /**
   * The earliest first arrival of the users due now, or null when none is: a claim that arrived
   * later than it by more than the slack waits.
   */
  Instant earliestDue(Instant now) {
    refresh(now);
    return dueNow.isEmpty() ? null : dueNow.firstKey();
  }

  /** Whether a claim that first arrived at {@code arrival} must leave free slots to a user due. */
  boolean holdsBack(Instant arrival, Instant now) {
    Instant earliest = earliestDue(now);
    return earliest != null && key(arrival).isAfter(earliest.plus(slack));
  }

  /** When the earliest user due now stops holding others back, if they do not come back first. */
  Instant releasedAt(Instant now) {
    Instant earliest = earliestDue(now);
    return earliest == null ? now : dueNow.get(earliest).plus(grace);
  }

  /** Users told and not yet back, remembered. */
  int size() {
    return told.size();
  }

  private static Instant key(Instant arrival) {
    return arrival.truncatedTo(ChronoUnit.MILLIS);
  }

  private void refresh(Instant now) {
    while (!byDue.isEmpty() && !byDue.peek().due().isAfter(now)) {
      Told next = byDue.poll();
      if (next.due().equals(told.get(next.arrival()))) {
        dueNow.put(next.arrival(), next.due());
      }
    }
    for (Iterator<Map.Entry<Instant, Instant>> i = dueNow.entrySet().iterator(); i.hasNext(); ) {
      Map.Entry<Instant, Instant> e = i.next();
      if (e.getValue().plus(grace).isBefore(now)) {
        i.remove();
        told.remove(e.getKey(), e.getValue());
      }
    }
    // entries told again (a later due) leave a stale copy in byDue, skipped when it comes up
    if (byDue.size() > 4 * Math.max(capacity, told.size())) {
      byDue.removeIf(t -> !t.due().equals(told.get(t.arrival())));
    }
  }
}
