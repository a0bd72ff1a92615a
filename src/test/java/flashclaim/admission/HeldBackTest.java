package flashclaim.admission;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The users told to come back, each on their own: at a thousand clicks a second on one instance,
 * nearly two users in three share the millisecond of their first arrival with another.
 */
class HeldBackTest {
  private static final Instant T0 = Instant.parse("2026-12-07T10:00:00.100Z");
  private static final Duration GRACE = Duration.ofMillis(150);

  private final HeldBack held = new HeldBack(GRACE, Duration.ZERO, 100);

  @Test
  void twoUsersOfTheSameMillisecondAreToldAndBackEachOnTheirOwn() {
    Instant first = T0.plusNanos(100_000); // .100100
    Instant second = T0.plusNanos(400_000); // .100400, the same millisecond
    Instant due = T0.plusSeconds(2);
    held.told(first, due);
    held.told(second, due.plusMillis(50));
    Instant later = T0.plusSeconds(1); // a click a second after both
    Instant now = due.plusMillis(60); // both due, within their grace

    assertThat(held.awayBefore(later, now)).isEqualTo(2);
    assertThat(held.earliestDue(now)).isEqualTo(first);

    held.back(first);

    assertThat(held.awayBefore(later, now)).as("the second is still away").isEqualTo(1);
    assertThat(held.earliestDue(now)).isEqualTo(second);
    assertThat(held.heldUntil(later, now))
        .as("a later click still leaves the free slots to the second")
        .isEqualTo(due.plusMillis(50).plus(GRACE));

    held.back(second);

    assertThat(held.awayBefore(later, now)).isZero();
    assertThat(held.heldUntil(later, now)).isNull();
  }

  @Test
  void aUserToldAgainIsStillOneEntry() {
    Instant arrival = T0.plusNanos(250_000);
    held.told(arrival, T0.plusSeconds(2));
    held.told(arrival, T0.plusSeconds(4)); // refused again on their return, told a later turn

    assertThat(held.awayBefore(T0.plusSeconds(1), T0.plusSeconds(3))).isEqualTo(1);
    assertThat(held.earliestDue(T0.plusSeconds(3))).as("not due before the later turn").isNull();
    assertThat(held.earliestDue(T0.plusSeconds(4))).isEqualTo(arrival);
    held.back(arrival);
    assertThat(held.awayBefore(T0.plusSeconds(1), T0.plusSeconds(4))).isZero();
  }
}
