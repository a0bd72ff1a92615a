package flashclaim.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import flashclaim.testing.MovableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The memory of callers told to come back later, with a movable clock: a retry sooner than its
 * Retry-After less the tolerance is too early, one at that time is not; the tolerance never exceeds
 * half the Retry-After; callers and campaigns are told apart; the memory holds at most its bound
 * and forgets each caller when its time has come.
 */
class ClaimPacingTest {
  private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");
  private static final String TOKEN = "Bearer eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl";
  private static final String CLAIM = "/v1/campaigns/spring-sale/claims";

  private final MovableClock clock = new MovableClock(T0);
  private final ManualTimer timer = new ManualTimer(clock);

  @Test
  void aRetrySoonerThanToldIsTooEarlyAndOneAtItsTimeIsNot() {
    ClaimPacing pacing = pacing(100, Duration.ofMillis(250));
    long key = ClaimPacing.key(TOKEN, CLAIM);
    assertThat(pacing.waitLeft(key)).isEmpty(); // never told anything

    pacing.toldToWait(key, Duration.ofSeconds(2));
    clock.move(Duration.ofMillis(1_750)); // 2 s less the tolerance: let through
    assertThat(pacing.waitLeft(key)).isEmpty();
    assertThat(pacing.tooEarlyCount()).isZero();

    pacing.toldToWait(key, Duration.ofSeconds(2));
    // Too early: it loses the tolerance, and waits until a tolerance past the 2 s it was told.
    assertThat(pacing.waitLeft(key)).contains(Duration.ofMillis(2_250));
    clock.move(Duration.ofMillis(1_000));
    assertThat(pacing.waitLeft(key)).contains(Duration.ofMillis(1_250));
    clock.move(Duration.ofMillis(1_249));
    assertThat(pacing.waitLeft(key)).contains(Duration.ofMillis(1));
    clock.move(Duration.ofMillis(1));
    assertThat(pacing.waitLeft(key)).isEmpty();
    clock.move(Duration.ofSeconds(10));
    assertThat(pacing.waitLeft(key)).isEmpty();
    assertThat(pacing.tooEarlyCount()).isEqualTo(3);
  }

  @Test
  void aWaitToldInMillisecondsLetsTheRetryThroughAtThatTimeNotAtTheWholeSecond() {
    ClaimPacing pacing = pacing(100, Duration.ofMillis(250));
    long key = ClaimPacing.key(TOKEN, CLAIM);
    pacing.toldToWait(key, Duration.ofMillis(300)); // the tolerance is at most half: 150 ms
    clock.move(Duration.ofMillis(149));
    assertThat(pacing.waitLeft(key)).isPresent(); // too early
    assertThat(pacing.tooEarlyCount()).isEqualTo(1);

    pacing.toldToWait(key, Duration.ofMillis(300));
    clock.move(Duration.ofMillis(150)); // the time told less the tolerance: let through
    assertThat(pacing.waitLeft(key)).isEmpty();
    assertThat(pacing.tooEarlyCount()).isEqualTo(1);
  }

  @Test
  void theTimeLeftIsRoundedUpSoThatAClientWaitingItIsLetThrough() {
    ClaimPacing pacing = pacing(100, Duration.ofMillis(250));
    long key = ClaimPacing.key(TOKEN, CLAIM);
    pacing.toldToWait(key, Duration.ofSeconds(1));
    clock.move(Duration.ofNanos(500_000)); // 0.5 ms
    Duration left = pacing.waitLeft(key).orElseThrow();
    assertThat(left).isEqualTo(Duration.ofMillis(1_250)); // 1,249.5 ms: the tolerance lost
    clock.move(left);
    assertThat(pacing.waitLeft(key)).isEmpty();
  }

  @Test
  void theToleranceIsAtMostHalfTheRetryAfter() {
    ClaimPacing pacing = pacing(100, Duration.ofSeconds(5));
    long key = ClaimPacing.key(TOKEN, CLAIM);
    pacing.toldToWait(key, Duration.ofSeconds(1));
    clock.move(Duration.ofMillis(499));
    assertThat(pacing.waitLeft(key)).as("1 s less half of it").contains(Duration.ofMillis(1_001));
    pacing.toldToWait(key, Duration.ofSeconds(30));
    clock.move(Duration.ofMillis(24_999));
    assertThat(pacing.waitLeft(key)).as("30 s less 5 s").contains(Duration.ofMillis(10_001));

    ClaimPacing exact = pacing(100, Duration.ZERO);
    exact.toldToWait(key, Duration.ofSeconds(3));
    assertThat(exact.waitLeft(key)).contains(Duration.ofSeconds(3));
  }

  @Test
  void theLatestAnswerCountsAndAZeroRetryAfterIsNotRemembered() {
    ClaimPacing pacing = pacing(100, Duration.ZERO);
    long key = ClaimPacing.key(TOKEN, CLAIM);
    pacing.toldToWait(key, Duration.ofSeconds(5));
    pacing.toldToWait(key, Duration.ofSeconds(1));
    assertThat(pacing.waitLeft(key)).contains(Duration.ofSeconds(1));

    long other = ClaimPacing.key(TOKEN, "/v1/campaigns/other/claims");
    pacing.toldToWait(other, Duration.ofSeconds(0));
    pacing.toldToWait(other, Duration.ofSeconds(-3));
    assertThat(pacing.waitLeft(other)).isEmpty();
  }

  @Test
  void callersAndCampaignsAreToldApart() {
    ClaimPacing pacing = pacing(100, Duration.ZERO);
    pacing.toldToWait(ClaimPacing.key(TOKEN, CLAIM), Duration.ofSeconds(3));
    assertThat(pacing.waitLeft(ClaimPacing.key(TOKEN, CLAIM))).isPresent();
    assertThat(pacing.waitLeft(ClaimPacing.key(TOKEN + "x", CLAIM))).isEmpty();
    assertThat(pacing.waitLeft(ClaimPacing.key(TOKEN, "/v1/campaigns/other/claims"))).isEmpty();
    // The two parts cannot run into each other.
    assertThat(ClaimPacing.key("ab", "c")).isNotEqualTo(ClaimPacing.key("a", "bc"));
    Set<Long> keys = new HashSet<>();
    for (int i = 0; i < 10_000; i++) {
      keys.add(ClaimPacing.key("Bearer token-" + i, CLAIM));
    }
    assertThat(keys).hasSize(10_000);
  }

  @Test
  void callersAreForgottenWhenTheirTimeHasCome() {
    ClaimPacing pacing = pacing(100, Duration.ZERO);
    for (int i = 0; i < 10; i++) {
      pacing.toldToWait(
          ClaimPacing.key("Bearer " + i, CLAIM), Duration.ofSeconds(i % 2 == 0 ? 1 : 20));
    }
    pacing.cleanUp();
    assertThat(pacing.callers()).isEqualTo(10);
    // Caffeine's timer wheel forgets an entry in the tick (about a second) after its time.
    clock.move(Duration.ofSeconds(3));
    pacing.cleanUp();
    assertThat(pacing.callers()).isEqualTo(5);
    clock.move(Duration.ofSeconds(20));
    pacing.cleanUp();
    assertThat(pacing.callers()).isZero();
  }

  @Test
  void theAnswerToARetryTooSoonIsHeldForTheWaitLeftAtMostTheHold() {
    ClaimPacing pacing = holding(Duration.ofSeconds(5), 10);
    long key = ClaimPacing.key(TOKEN, CLAIM);
    assertThat(pacing.tooSoon(key)).isEmpty(); // never told anything: no answer, nothing held

    pacing.toldToWait(key, Duration.ofSeconds(2));
    CompletableFuture<Duration> first = pacing.tooSoon(key).orElseThrow();
    // Too early: the tolerance is lost, so 2,250 ms are left, all of them within the hold.
    assertThat(first).isNotDone();
    assertThat(pacing.held()).isEqualTo(1);
    clock.move(Duration.ofMillis(2_249));
    timer.fireDue();
    assertThat(first).isNotDone();
    clock.move(Duration.ofMillis(1));
    timer.fireDue();
    assertThat(first).isCompletedWithValue(Duration.ZERO);
    assertThat(pacing.held()).isZero();
    assertThat(pacing.tooSoon(key)).isEmpty(); // its time has come: let through

    // A wait longer than the hold: held 5 s, then told the rest.
    pacing.toldToWait(key, Duration.ofSeconds(30));
    CompletableFuture<Duration> longer = pacing.tooSoon(key).orElseThrow();
    clock.move(Duration.ofSeconds(5));
    timer.fireDue();
    assertThat(longer).isCompletedWithValue(Duration.ofMillis(25_250));
    assertThat(pacing.tooEarlyCount()).isEqualTo(2);
  }

  @Test
  void atMostMaxHeldAnswersAreHeldAndTheRestAreSentAtOnce() {
    ClaimPacing pacing = holding(Duration.ofSeconds(5), 3);
    for (int i = 0; i < 5; i++) {
      pacing.toldToWait(ClaimPacing.key("Bearer " + i, CLAIM), Duration.ofSeconds(2));
    }
    int atOnce = 0;
    for (int i = 0; i < 5; i++) {
      CompletableFuture<Duration> answer =
          pacing.tooSoon(ClaimPacing.key("Bearer " + i, CLAIM)).orElseThrow();
      atOnce += answer.isDone() ? 1 : 0;
    }
    assertThat(pacing.held()).isEqualTo(3);
    assertThat(atOnce).isEqualTo(2);
    assertThat(timer.pending()).isEqualTo(3);
    clock.move(Duration.ofSeconds(3));
    timer.fireDue();
    assertThat(pacing.held()).isZero();
    // With places free again, the next is held.
    long key = ClaimPacing.key("Bearer 0", CLAIM);
    pacing.toldToWait(key, Duration.ofSeconds(2));
    assertThat(pacing.tooSoon(key).orElseThrow()).isNotDone();
    assertThat(pacing.held()).isEqualTo(1);
  }

  @Test
  void aDrainSendsEveryHeldAnswerAtOnceWithTheRestOfItsWaitAndHoldsNoMore() {
    ClaimPacing pacing = holding(Duration.ofSeconds(5), 10);
    long key = ClaimPacing.key(TOKEN, CLAIM);
    pacing.toldToWait(key, Duration.ofSeconds(2));
    CompletableFuture<Duration> held = pacing.tooSoon(key).orElseThrow();
    clock.move(Duration.ofMillis(500));
    pacing.sendHeldNow();
    assertThat(held).isCompletedWithValue(Duration.ofMillis(1_750));
    assertThat(pacing.held()).isZero();
    timer.fireDue(); // the hold's own end sends nothing more
    assertThat(pacing.held()).isZero();
    assertThat(pacing.tooSoon(key).orElseThrow()).isCompletedWithValue(Duration.ofMillis(1_750));
  }

  @Test
  void aHoldOfZeroAnswersAtOnceWithTheWholeWaitLeft() {
    ClaimPacing pacing = holding(Duration.ZERO, 10);
    long key = ClaimPacing.key(TOKEN, CLAIM);
    pacing.toldToWait(key, Duration.ofSeconds(2));
    assertThat(pacing.tooSoon(key).orElseThrow()).isCompletedWithValue(Duration.ofMillis(2_250));
    assertThat(pacing.held()).isZero();
    assertThat(timer.pending()).isZero();
  }

  @Test
  void theMemoryHoldsAtMostItsBound() {
    int bound = 1_000;
    ClaimPacing pacing = pacing(bound, Duration.ZERO);
    for (int i = 0; i < 20 * bound; i++) {
      pacing.toldToWait(ClaimPacing.key("Bearer " + i, CLAIM), Duration.ofSeconds(30));
    }
    pacing.cleanUp();
    assertThat(pacing.callers()).isEqualTo(bound);
    int remembered = 0;
    for (int i = 0; i < 20 * bound; i++) {
      remembered += pacing.waitLeft(ClaimPacing.key("Bearer " + i, CLAIM)).isPresent() ? 1 : 0;
    }
    assertThat(remembered).isEqualTo(bound);
    assertThat(pacing.tooEarlyCount()).isEqualTo(bound);
  }

  @Test
  void aConfigurationThatCannotWorkIsRefused() {
    assertThatThrownBy(() -> new PacingConfig(true, 0, Duration.ZERO, Duration.ZERO, 0))
        .hasMessageContaining("max-callers");
    assertThatThrownBy(() -> new PacingConfig(true, 10, Duration.ofMillis(-1), Duration.ZERO, 0))
        .hasMessageContaining("tolerance");
    assertThatThrownBy(() -> new PacingConfig(true, 10, Duration.ZERO, Duration.ofMillis(-1), 0))
        .hasMessageContaining("hold-too-soon");
    assertThatThrownBy(() -> new PacingConfig(true, 10, Duration.ZERO, Duration.ZERO, -1))
        .hasMessageContaining("max-held");
  }

  private ClaimPacing pacing(int maxCallers, Duration tolerance) {
    return new ClaimPacing(
        new PacingConfig(true, maxCallers, tolerance, Duration.ZERO, 0), clock, timer);
  }

  private ClaimPacing holding(Duration hold, int maxHeld) {
    return new ClaimPacing(
        new PacingConfig(true, 100, Duration.ofMillis(250), hold, maxHeld), clock, timer);
  }
}
