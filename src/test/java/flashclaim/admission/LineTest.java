package flashclaim.admission;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A claim's place in {@link Line} is the plain count of the claims before it, whatever the
 * arrivals: many in one millisecond or one bucket, arrivals to the nanosecond, arrivals from
 * seconds to hours apart, and arrivals beyond the span the buckets can cover.
 */
class LineTest {
  private static final Instant T0 = Instant.parse("2026-12-07T03:00:00Z");

  private record Claim(Instant arrival, long sequence) implements Line.Place {}

  private static final Comparator<Claim> ORDER =
      Comparator.comparing(Claim::arrival).thenComparingLong(Claim::sequence);

  @Test
  void placesAreThePlainCountsOfTheClaimsBefore() {
    // spans: within a bucket or two, a few seconds, an hour, and beyond the buckets' six hours
    for (long spanNanos : new long[] {15_000_000L, 3_000_000_000L, 3_600_000_000_000L, 40_000_000_000_000L}) {
      Random random = new Random(spanNanos);
      Line<Claim> line = new Line<>();
      List<Claim> waiting = new ArrayList<>();
      long sequence = 0;
      for (int step = 0; step < 4_000; step++) {
        int action = random.nextInt(10);
        if (waiting.isEmpty() || action < 5) {
          Claim claim = new Claim(arrival(random, spanNanos), sequence++);
          line.add(claim);
          waiting.add(claim);
        } else if (action < 7) {
          Claim gone = waiting.remove(random.nextInt(waiting.size()));
          assertThat(line.remove(gone)).isTrue();
          assertThat(line.remove(gone)).as("not twice").isFalse();
        } else if (action == 7) {
          waiting.sort(ORDER);
          assertThat(line.pollFirst()).isEqualTo(waiting.remove(0));
        } else if (action == 8) {
          waiting.sort(ORDER);
          assertThat(line.pollLast()).isEqualTo(waiting.remove(waiting.size() - 1));
        }
        waiting.sort(ORDER);
        assertThat(line.size()).isEqualTo(waiting.size());
        if (!waiting.isEmpty()) {
          int at = random.nextInt(waiting.size());
          assertThat(line.before(waiting.get(at))).as("step %d", step).isEqualTo(at);
          assertThat(line.before(waiting.get(waiting.size() - 1))).isEqualTo(waiting.size() - 1);
          assertThat(line.first()).isEqualTo(waiting.get(0));
          assertThat(line.last()).isEqualTo(waiting.get(waiting.size() - 1));
        }
        Instant probe = random.nextBoolean() || waiting.isEmpty()
            ? arrival(random, spanNanos)
            : waiting.get(random.nextInt(waiting.size())).arrival();
        long noLater = waiting.stream().filter(c -> !c.arrival().isAfter(probe)).count();
        assertThat(line.noLaterThan(probe)).as("step %d", step).isEqualTo((int) noLater);
      }
      List<Claim> inOrder = new ArrayList<>();
      line.forEach(inOrder::add);
      assertThat(inOrder).containsExactlyElementsOf(waiting);
      line.clear();
      assertThat(line.isEmpty()).isTrue();
      assertThat(line.noLaterThan(T0)).isZero();
    }
  }

  /** Claims of one first arrival are in line in the order they came, and count so. */
  @Test
  void claimsOfOneArrivalCountInTheOrderTheyCame() {
    Line<Claim> line = new Line<>();
    Claim first = new Claim(T0, 1);
    Claim second = new Claim(T0, 2);
    Claim earlier = new Claim(T0.minusNanos(1), 3);
    line.add(second);
    line.add(first);
    line.add(earlier);
    assertThat(line.before(earlier)).isZero();
    assertThat(line.before(first)).isEqualTo(1);
    assertThat(line.before(second)).isEqualTo(2);
    assertThat(line.noLaterThan(T0)).isEqualTo(3);
    assertThat(line.noLaterThan(T0.minusNanos(1))).isEqualTo(1);
    assertThat(line.noLaterThan(T0.minusNanos(2))).isZero();
  }

  /** Mostly close together, as a sale's arrivals are, a few far away, some on one millisecond. */
  private static Instant arrival(Random random, long spanNanos) {
    long at = (long) (random.nextDouble() * spanNanos);
    if (random.nextInt(4) == 0) {
      at = at / 1_000_000 * 1_000_000; // to the millisecond, as tickets carry them
    }
    return T0.plusNanos(random.nextInt(20) == 0 ? -at : at);
  }
}
