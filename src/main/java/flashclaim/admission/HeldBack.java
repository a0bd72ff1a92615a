package flashclaim.admission;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
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
 * <p>First arrivals are kept to the microsecond, as a ticket carries them back: users who arrived
 * in the same millisecond are told, held for and back each on their own (only users stamped in the
 * same microsecond are one entry). Not thread-safe: {@link FairAdmission} calls it under its
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
  /**
   * The users of {@link #dueNow} in the order they became due, which is the order their grace
   * ends; entries of users back or told again meanwhile are skipped when they come up.
   */
  private final Deque<Told> dueOrder = new ArrayDeque<>();
  /** The first arrivals of {@link #told}, to count those before one. */
  private final ArrivalRanks ranks = new ArrivalRanks();

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
    } else {
      ranks.add(arrival);
    }
    byDue.add(new Told(arrival, due));
  }

  /** A user who first arrived at {@code arrival} came back. */
  void back(Instant firstArrival) {
    Instant arrival = key(firstArrival);
    if (told.remove(arrival) != null) {
      dueNow.remove(arrival);
      ranks.remove(arrival);
    }
  }

  /**
   * How many users told to come back and not back yet, nor past their grace, first arrived before
   * {@code arrival} (by at least {@value ArrivalRanks#BUCKET_MS} ms): the users away whose place in
   * line is ahead of it.
   */
  int awayBefore(Instant arrival, Instant now) {
    refresh(now);
    return ranks.before(key(arrival));
  }

  /**
   * Whether a claim that first arrived at {@code arrival} must leave free slots to a user due now,
   * who arrived earlier by more than the slack: if so, when that user stops holding it back unless
   * they come back first; null when nobody does.
   */
  Instant heldUntil(Instant arrival, Instant now) {
    refresh(now);
    if (dueNow.isEmpty()) {
      return null;
    }
    Map.Entry<Instant, Instant> earliest = dueNow.firstEntry();
    return key(arrival).isAfter(earliest.getKey().plus(slack))
        ? earliest.getValue().plus(grace)
        : null;
  }

  /** The earliest first arrival among the users due now; null when none is. */
  Instant earliestDue(Instant now) {
    refresh(now);
    return dueNow.isEmpty() ? null : dueNow.firstKey();
  }

  private static Instant key(Instant arrival) {
    return arrival.truncatedTo(ChronoUnit.MICROS);
  }

  private void refresh(Instant now) {
    while (!byDue.isEmpty() && !byDue.peek().due().isAfter(now)) {
      Told next = byDue.poll();
      if (next.due().equals(told.get(next.arrival()))) {
        dueNow.put(next.arrival(), next.due());
        dueOrder.addLast(next);
      }
    }
    while (!dueOrder.isEmpty() && dueOrder.peekFirst().due().plus(grace).isBefore(now)) {
      Told over = dueOrder.pollFirst();
      if (dueNow.remove(over.arrival(), over.due()) && told.remove(over.arrival(), over.due())) {
        ranks.remove(over.arrival());
      }
    }
    // entries told again (a later due) leave a stale copy in byDue, skipped when it comes up
    if (byDue.size() > 4 * Math.max(capacity, told.size())) {
      byDue.removeIf(t -> !t.due().equals(told.get(t.arrival())));
    }
  }
}
