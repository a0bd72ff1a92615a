package flashclaim.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import flashclaim.admission.FairAdmission.Entry;
import flashclaim.admission.FairAdmission.Reason;
import flashclaim.admission.FairAdmission.Result;
import com.netflix.concurrency.limits.limit.SettableLimit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;
import flashclaim.testing.MovableClock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The fair wait in front of the concurrency limit, deterministic: a movable clock, a timer that
 * fires when told, and a fixed limit. Waiting claims are served by first arrival (G7), the queue
 * never holds more than its bound, no wait outlasts its deadline (G6), and Retry-After follows the
 * place in line and the drain rate, spread by jitter, or, with appointments, the turn in the book.
 */
class FairAdmissionTest {
  private static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");
  private static final Instant LATER = T0.plusSeconds(3600);

  private final MovableClock clock = new MovableClock(T0);
  private final ManualTimer timer = new ManualTimer(clock);

  @Test
  void waitingClaimsAreServedByFirstArrivalNotByOrderOfComing() {
    FairAdmission admission = admission(1, 10, () -> 0.5);
    FairAdmission.Permit holder = admitted(admission.enter(T0, LATER));
    List<Integer> served = new ArrayList<>();
    List<CompletionStage<Entry>> waiting = new ArrayList<>();
    int[] arrivals = {30, 10, 20, 5, 25};
    for (int second : arrivals) {
      CompletionStage<Entry> entry = admission.enter(T0.plusSeconds(second), LATER);
      entry.thenAccept(e -> served.add(second));
      waiting.add(entry);
    }
    assertThat(admission.queued()).isEqualTo(arrivals.length);
    assertThat(served).isEmpty();

    holder.release(Result.SUCCESS);
    for (int i = 0; i < arrivals.length; i++) {
      assertThat(served).hasSize(i + 1);
      assertThat(admission.inFlight()).isEqualTo(1);
      permitOfLastServed(waiting, arrivals, served).release(Result.SUCCESS);
    }
    assertThat(served).containsExactly(5, 10, 20, 25, 30);
    assertThat(admission.inFlight()).isZero();
    assertThat(admission.queued()).isZero();
  }

  @Test
  void equalArrivalsAreServedInTheOrderTheyCame() {
    FairAdmission admission = admission(1, 10, () -> 0.5);
    FairAdmission.Permit holder = admitted(admission.enter(T0, LATER));
    List<String> served = new ArrayList<>();
    List<CompletionStage<Entry>> entries = new ArrayList<>();
    for (String name : new String[] {"a", "b", "c"}) {
      CompletionStage<Entry> entry = admission.enter(T0.plusSeconds(1), LATER);
      entry.thenAccept(e -> served.add(name));
      entries.add(entry);
    }
    holder.release(Result.SUCCESS);
    for (CompletionStage<Entry> entry : entries) {
      admitted(entry).release(Result.SUCCESS);
    }
    assertThat(served).containsExactly("a", "b", "c");
  }

  /** A full queue keeps the earliest arrivals: a later one is refused, an earlier one bumps it. */
  @Test
  void aFullQueueRefusesTheLatestArrival() {
    FairAdmission admission = admission(1, 2, () -> 0.5);
    FairAdmission.Permit holder = admitted(admission.enter(T0, LATER));
    CompletionStage<Entry> a = admission.enter(T0.plusSeconds(10), LATER);
    CompletionStage<Entry> c = admission.enter(T0.plusSeconds(30), LATER);
    CompletionStage<Entry> b = admission.enter(T0.plusSeconds(20), LATER);

    assertThat(refused(c).reason()).isEqualTo(Reason.QUEUE_FULL);
    assertThat(admission.queued()).isEqualTo(2);
    CompletionStage<Entry> d = admission.enter(T0.plusSeconds(40), LATER);
    assertThat(refused(d).reason()).isEqualTo(Reason.QUEUE_FULL);
    assertThat(admission.queued()).isEqualTo(2);
    assertThat(admission.refused(Reason.QUEUE_FULL)).isEqualTo(2);

    holder.release(Result.SUCCESS);
    admitted(a).release(Result.SUCCESS);
    admitted(b).release(Result.SUCCESS);
    assertThat(admission.inFlight()).isZero();
  }

  @Test
  void withNoRoomToWaitOnlyAFreeSlotAdmits() {
    FairAdmission admission = admission(2, 0, () -> 0.5);
    FairAdmission.Permit first = admitted(admission.enter(T0, LATER));
    admitted(admission.enter(T0, LATER));
    assertThat(refused(admission.enter(T0, LATER)).reason()).isEqualTo(Reason.QUEUE_FULL);
    first.release(Result.DROPPED);
    admitted(admission.enter(T0, LATER));
  }

  @Test
  void aClaimWaitsNoLongerThanItsWaitAllows() {
    FairAdmission admission = admission(1, 10, () -> 0.5);
    FairAdmission.Permit holder = admitted(admission.enter(T0, LATER));
    CompletionStage<Entry> waiting = admission.enter(T0.plusSeconds(1), T0.plusSeconds(2));
    CompletionStage<Entry> patient = admission.enter(T0.plusSeconds(2), LATER);

    clock.move(Duration.ofMillis(1_999));
    timer.fireDue();
    assertThat(waiting.toCompletableFuture()).isNotDone();
    clock.move(Duration.ofMillis(1));
    timer.fireDue();
    assertThat(refused(waiting).reason()).isEqualTo(Reason.DEADLINE);
    assertThat(admission.queued()).isEqualTo(1);

    holder.release(Result.SUCCESS);
    admitted(patient).release(Result.SUCCESS);
    assertThat(timer.pending()).isZero(); // the admitted claim's timer was cancelled
    assertThat(admission.inFlight()).isZero();
  }

  @Test
  void aClaimWithNoTimeLeftIsRefusedRatherThanQueued() {
    FairAdmission admission = admission(1, 10, () -> 0.5);
    admitted(admission.enter(T0, LATER));
    assertThat(refused(admission.enter(T0, T0)).reason()).isEqualTo(Reason.DEADLINE);
    assertThat(admission.queued()).isZero();
  }

  /**
   * With claims held 100 ms each and a limit of 2, slots free at 20 per second: the claim with three
   * before it expects its turn after 200 ms, so with 150 ms left it is refused at once, and told to
   * come back after its expected turn plus jitter (half the spread of at least a second).
   */
  @Test
  void aClaimWhoseTurnWouldComeTooLateIsRefusedAtOnce() {
    FairAdmission admission = admission(2, 10, () -> 0.5);
    measureHoldTime(admission, Duration.ofMillis(100));
    assertThat(admission.drainRate()).isEqualTo(20.0);
    admitted(admission.enter(T0, LATER));
    admitted(admission.enter(T0, LATER));
    for (int i = 0; i < 3; i++) {
      assertThat(admission.enter(T0, LATER).toCompletableFuture()).isNotDone();
    }

    Entry.Refused refused = refused(admission.enter(T0, clock.instant().plusMillis(150)));

    assertThat(refused.reason()).isEqualTo(Reason.DEADLINE);
    assertThat(refused.retryAfter()).isEqualTo(Duration.ofMillis(200 + 500));
    assertThat(admission.enter(T0, clock.instant().plusMillis(250)).toCompletableFuture())
        .isNotDone(); // its turn comes just in time
    assertThat(admission.queued()).isEqualTo(4);
  }

  /** Retry-After: the expected turn plus up to half of it (at least a second) more, capped. */
  @Test
  void retryAfterFollowsThePlaceInLineAndIsSpreadByJitter() {
    Iterator<Double> draws = List.of(0.0, 0.999, 0.0, 0.5).iterator();
    FairAdmission admission = admission(1, 50, draws::next);
    measureHoldTime(admission, Duration.ofMillis(100));
    admitted(admission.enter(T0, LATER));
    for (int i = 0; i < 50; i++) {
      admission.enter(T0, LATER);
    }
    // 50 wait before a later arrival: its turn comes after 51 holds of 100 ms.
    Duration lowest = refused(admission.enter(T0.plusSeconds(1), LATER)).retryAfter();
    Duration highest = refused(admission.enter(T0.plusSeconds(1), LATER)).retryAfter();
    assertThat(lowest).isEqualTo(Duration.ofMillis(5_100));
    assertThat(highest).isBetween(Duration.ofMillis(7_640), Duration.ofMillis(7_650));

    FairAdmission soon = admission(1, 0, draws::next);
    measureHoldTime(soon, Duration.ofMillis(100));
    admitted(soon.enter(T0, LATER));
    assertThat(refused(soon.enter(T0, LATER)).retryAfter()).isEqualTo(Duration.ofMillis(100));
    assertThat(refused(soon.enter(T0, LATER)).retryAfter()).isEqualTo(Duration.ofMillis(600));
  }

  @Test
  void retryAfterIsCappedAndSpreadEvenBeforeAnyClaimWasMeasured() {
    FairAdmission unmeasured = admission(1, 0, () -> 0.75);
    admitted(unmeasured.enter(T0, LATER));
    assertThat(refused(unmeasured.enter(T0, LATER)).retryAfter()).isEqualTo(Duration.ofMillis(750));

    FairAdmission slow = admission(1, 0, () -> 0.0);
    measureHoldTime(slow, Duration.ofMinutes(5));
    admitted(slow.enter(T0, LATER));
    assertThat(refused(slow.enter(T0, LATER)).retryAfter()).isEqualTo(Duration.ofSeconds(30));
  }

  /**
   * With appointments, each new user is given the next turn, one drain interval (50 ms here) after
   * the previous new user's: those whose turn comes after their wait are refused at once and told
   * it, in the order they came, whatever the jitter. A returning user is not booked again: they
   * wait by their first arrival and the next new user's turn is unchanged. Once the book has run
   * out, turns count from now again.
   */
  @Test
  void newUsersAreToldSuccessiveTurnsAndReturningUsersAreNotBookedAgain() {
    FairAdmission admission = withAppointments(2, 10, () -> 0.999);
    measureHoldTime(admission, Duration.ofMillis(100));
    Instant waitUntil = clock.instant().plusMillis(120);
    admitted(admission.enter(T0.plusSeconds(1), waitUntil)); // turn after 50 ms
    admitted(admission.enter(T0.plusSeconds(2), waitUntil)); // 100 ms
    List<Duration> told = new ArrayList<>();
    for (int i = 3; i <= 5; i++) {
      Entry.Refused refused = refused(admission.enter(T0.plusSeconds(i), waitUntil));
      assertThat(refused.reason()).isEqualTo(Reason.DEADLINE);
      told.add(refused.retryAfter());
    }
    assertThat(told)
        .containsExactly(Duration.ofMillis(150), Duration.ofMillis(200), Duration.ofMillis(250));
    assertThat(admission.booked()).isEqualTo(Duration.ofMillis(250));

    CompletionStage<Entry> back = admission.enterAgain(T0, LATER);
    assertThat(back.toCompletableFuture()).as("waits in line, first").isNotDone();
    assertThat(admission.booked()).isEqualTo(Duration.ofMillis(250));
    assertThat(refused(admission.enter(T0.plusSeconds(6), waitUntil)).retryAfter())
        .isEqualTo(Duration.ofMillis(300));

    clock.move(Duration.ofSeconds(1));
    assertThat(admission.booked()).isZero();
    assertThat(admission.refused(Reason.DEADLINE)).isEqualTo(4);
  }

  /**
   * A turn beyond {@code max-retry-after} (30 s here) is told as 30 s, with the turn itself in the
   * refusal for the user's ticket; coming back before it, the user is told the rest of the wait
   * (with the turn again while the rest lies beyond 30 s), and within their wait of it they join
   * the line. So users whose turns lie beyond 30 s do not all come back 30 s after they clicked.
   */
  @Test
  void aTurnBeyondTheLongestRetryAfterTravelsWithTheUserAndHoldsThemBackUntilItComes() {
    FairAdmission admission = withAppointments(2, 10, () -> 0.999);
    measureHoldTime(admission, Duration.ofMillis(100)); // a turn every 50 ms
    Instant start = clock.instant();
    Instant waitUntil = start.plusMillis(120);
    admitted(admission.enter(T0.plusMillis(1), waitUntil));
    admitted(admission.enter(T0.plusMillis(2), waitUntil));
    Map<Integer, Entry.Refused> told = new HashMap<>();
    for (int i = 3; i <= 1_300; i++) {
      told.put(i, refused(admission.enter(T0.plusMillis(i), waitUntil)));
    }
    for (int i = 3; i <= 1_300; i++) {
      Duration turn = Duration.ofMillis(50L * i);
      Entry.Refused refused = told.get(i);
      assertThat(refused.reason()).isEqualTo(Reason.DEADLINE);
      if (i <= 600) {
        assertThat(refused.retryAfter()).as("user %d", i).isEqualTo(turn);
        assertThat(refused.turn()).as("user %d", i).isNull();
      } else {
        assertThat(refused.retryAfter()).as("user %d", i).isEqualTo(Duration.ofSeconds(30));
        assertThat(refused.turn()).as("user %d", i).isEqualTo(start.plus(turn));
      }
    }
    assertThat(admission.booked()).isEqualTo(Duration.ofSeconds(65));

    clock.move(Duration.ofSeconds(30));
    Entry.Refused again = refused(back(admission, 1_300, told.get(1_300)));
    assertThat(again.retryAfter()).isEqualTo(Duration.ofSeconds(30));
    assertThat(again.turn()).isEqualTo(start.plusSeconds(65));
    Entry.Refused rest = refused(back(admission, 700, told.get(700)));
    assertThat(rest.retryAfter()).isEqualTo(Duration.ofSeconds(5));
    assertThat(rest.turn()).isNull();
    assertThat(admission.refused(Reason.DEADLINE)).isEqualTo(1_298 + 2);

    clock.move(Duration.ofMillis(3_500)); // 1.5 s before user 700's turn
    assertThat(back(admission, 700, told.get(700)).toCompletableFuture())
        .as("within their wait of the turn, in line")
        .isNotDone();
    assertThat(admission.queued()).isEqualTo(1);
  }

  /**
   * A user back before the turn their ticket carries is served anyway when a slot is free, nobody
   * waits in line and nobody who clicked earlier is due back (the fleet front here): the turn was
   * told from a drain rate the instance now beats. While the slots are taken, while the front
   * stands before them, or with {@code early-when-idle} off, they are told the rest of their wait.
   */
  @Test
  void aUserBackBeforeTheirTurnIsServedWhenASlotWouldOtherwiseIdle() {
    for (boolean earlyWhenIdle : new boolean[] {true, false}) {
      AdmissionConfig config =
          config(
              2, 10, true, Duration.ofMillis(150), 4, 2, earlyWhenIdle,
              maxHolding(Duration.ofMillis(150)));
      FairAdmission admission =
          new FairAdmission(
              config, AdmissionFactory.limiter(config), clock, timer, () -> 0.999);
      AtomicReference<FairAdmission.FleetFront> front = new AtomicReference<>();
      admission.useFleetFront(front::get);
      measureHoldTime(admission, Duration.ofMillis(100)); // a turn every 50 ms
      Instant start = clock.instant();
      Instant waitUntil = start.plusMillis(120);
      FairAdmission.Permit one = admitted(admission.enter(T0.plusMillis(1), waitUntil));
      FairAdmission.Permit two = admitted(admission.enter(T0.plusMillis(2), waitUntil));
      Map<Integer, Entry.Refused> told = new HashMap<>();
      for (int i = 3; i <= 1_000; i++) {
        told.put(i, refused(admission.enter(T0.plusMillis(i), waitUntil)));
      }
      clock.move(Duration.ofSeconds(10)); // user 1,000's turn is 40 s away
      assertThat(refused(back(admission, 1_000, told.get(1_000))).retryAfter())
          .as("slots taken: the rest of the wait")
          .isEqualTo(Duration.ofSeconds(30));
      one.release(Result.SUCCESS);
      two.release(Result.SUCCESS);

      clock.move(Duration.ofMillis(20_010)); // users 601-999, told 30 s, are due back here
      assertThat(refused(back(admission, 998, told.get(998))).retryAfter())
          .as("a slot free, but users who clicked before are due back here")
          .isEqualTo(Duration.between(clock.instant(), told.get(998).turn()));

      clock.move(Duration.ofMillis(190)); // nobody due: their grace is over
      front.set(new FairAdmission.FleetFront(T0.plusMillis(500), clock.instant().plusSeconds(1)));
      assertThat(refused(back(admission, 999, told.get(999))).retryAfter())
          .as("an earlier click due back to another instance")
          .isEqualTo(Duration.between(clock.instant(), told.get(999).turn()));
      front.set(null);
      assertThat(admission.servedEarly()).isZero();
      if (earlyWhenIdle) {
        admitted(back(admission, 999, told.get(999)));
        admitted(back(admission, 997, told.get(997)));
        assertThat(refused(back(admission, 996, told.get(996))).retryAfter())
            .as("both slots taken again")
            .isEqualTo(Duration.between(clock.instant(), told.get(996).turn()));
        assertThat(admission.servedEarly()).isEqualTo(2);
      } else {
        assertThat(refused(back(admission, 999, told.get(999))).retryAfter())
            .as("early-when-idle off")
            .isEqualTo(Duration.between(clock.instant(), told.get(999).turn()));
        assertThat(admission.servedEarly()).isZero();
      }
    }
  }

  /** User {@code i} (first arrival {@code i} ms after T0) comes back with the turn once told. */
  private CompletionStage<Entry> back(FairAdmission admission, int i, Entry.Refused told) {
    return admission.enterAgain(T0.plusMillis(i), told.turn(), clock.instant().plusSeconds(2));
  }

  /**
   * Users told an earlier turn than the book's (the pool's forecast end) take the book no further
   * than {@code max-retry-after}: once they came back to a sold-out and left, the book runs out
   * within that, and new users, of this campaign or the next, are not held back for {@code
   * max-turn}.
   */
  @Test
  void usersToldTheForecastEndTakeTheBookNoFurtherThanTheLongestRetryAfter() {
    FairAdmission admission = withAppointments(1, 10, () -> 0.999);
    measureHoldTime(admission, Duration.ofMillis(100)); // a turn every 100 ms
    FairAdmission.Permit held = admitted(admission.enter(clock.instant(), LATER));
    Instant soon = clock.instant().plusSeconds(1);
    for (int i = 0; i < 400; i++) {
      Instant now = clock.instant();
      Entry.Refused refused =
          refused(admission.enter(now, now.plusMillis(50), (turn, arrival) -> soon));
      assertThat(refused.retryAfter()).isLessThanOrEqualTo(Duration.ofSeconds(1));
      assertThat(refused.turn()).isNull();
    }
    assertThat(admission.booked()).isEqualTo(Duration.ofSeconds(30));
    clock.move(Duration.ofSeconds(1));
    for (int i = 0; i < 400; i++) {
      admission.cameBack(T0); // answered without admission: the pool is gone
    }
    held.release(Result.IGNORED);

    clock.move(Duration.ofMillis(29_001));
    Instant now = clock.instant();
    admitted(admission.enter(now, now.plusMillis(500)));
  }

  /**
   * Users told the pool's forecast end beyond {@code max-retry-after}, earlier than their own turn,
   * have it in the ticket but take the book no further than {@code max-retry-after}: a new user of
   * the next campaign is not held back by the turns of users who are to find this one sold out.
   */
  @Test
  void usersToldAForecastEndBeyondTheLongestRetryAfterTakeTheBookNoFurther() {
    FairAdmission admission = withAppointments(1, 10, () -> 0.999);
    measureHoldTime(admission, Duration.ofMillis(100)); // a turn every 100 ms
    FairAdmission.Permit held = admitted(admission.enter(clock.instant(), LATER));
    Instant start = clock.instant();
    int beyond = 0;
    for (int i = 0; i < 1_500; i++) {
      // the forecast end, 20 s ahead, spaced 10 ms per user: from user 223 on earlier than their
      // own turn, and from user 1,001 on beyond max-retry-after (30 s), when it is told
      Instant forecast = start.plusSeconds(20).plusMillis(10L * i);
      Entry.Refused refused =
          refused(admission.enter(start, start.plusMillis(50), (turn, arrival) -> forecast));
      if (forecast.isAfter(start.plusSeconds(30))) {
        assertThat(refused.turn()).as("user %d", i).isEqualTo(forecast);
        beyond++;
      }
    }
    assertThat(beyond).isGreaterThan(400);
    // held at 30 s by the users told the forecast, the book gives the next users their own turns
    // from there, 100 ms apart (told as such, as long as they come before the forecast): it
    // reaches 35 s, not the 150 s of the users' own turns
    assertThat(admission.booked()).isLessThanOrEqualTo(Duration.ofSeconds(35));
    held.release(Result.IGNORED);
  }


  /**
   * A new user read after others who arrived later (behind a front end that stamps arrivals, their
   * request waited longer before the instance saw it) is told the turn after the last booked user
   * who arrived no later, not the end of the book; everyone booked after them is a step later.
   */
  @Test
  void aNewUserReadAfterLaterArrivalsIsToldTheTurnTheirArrivalGives() {
    FairAdmission admission = withAppointments(2, 10, () -> 0.999);
    measureHoldTime(admission, Duration.ofMillis(100)); // a turn every 50 ms
    Instant waitUntil = clock.instant().plusMillis(120);
    admitted(admission.enter(T0.plusSeconds(1), waitUntil)); // turn after 50 ms
    admitted(admission.enter(T0.plusSeconds(2), waitUntil)); // 100 ms
    assertThat(refused(admission.enter(T0.plusSeconds(5), waitUntil)).retryAfter())
        .isEqualTo(Duration.ofMillis(150));
    assertThat(refused(admission.enter(T0.plusSeconds(6), waitUntil)).retryAfter())
        .isEqualTo(Duration.ofMillis(200));
    assertThat(refused(admission.enter(T0.plusSeconds(3), waitUntil)).retryAfter())
        .as("arrived before the users told 150 and 200 ms: the turn after the one of 100 ms")
        .isEqualTo(Duration.ofMillis(150));
    assertThat(refused(admission.enter(T0.plusSeconds(4), waitUntil)).retryAfter())
        .as("after the late user of 150 ms")
        .isEqualTo(Duration.ofMillis(200));
    assertThat(refused(admission.enter(T0.plusSeconds(7), waitUntil)).retryAfter())
        .as("two steps later than without the late users")
        .isEqualTo(Duration.ofMillis(350));
    assertThat(admission.booked()).isEqualTo(Duration.ofMillis(350));
  }

  /**
   * Users who never come back keep no turn: when clients drop their tickets (or give up), every
   * attempt would otherwise book a turn at the end of a book that grows faster than time, and
   * nobody would ever be served. Once the instance sees that none of the users it refused came
   * back, new users are no longer booked ahead: they join the line.
   */
  @Test
  void whenNobodyComesBackNewUsersAreNoLongerBookedAhead() {
    FairAdmission admission = withAppointments(1, 10, () -> 0.5);
    measureHoldTime(admission, Duration.ofMillis(100)); // 10 a second
    int refusedAtOnce = 0;
    for (int second = 0; second < 8; second++) {
      for (int i = 0; i < 50; i++) {
        Instant now = clock.instant();
        CompletableFuture<Entry> entry = admission.enter(now, now.plusMillis(500)).toCompletableFuture();
        if (entry.isDone() && entry.join() instanceof Entry.Admitted admitted) {
          admitted.permit().release(Result.IGNORED); // work done at once, the drain rate unchanged
        } else if (entry.isDone()) {
          refusedAtOnce++;
        }
      }
      clock.move(Duration.ofSeconds(1));
      timer.fireDue();
    }
    assertThat(refusedAtOnce).as("booked ahead at first").isGreaterThan(40);
    Instant now = clock.instant();
    assertThat(admission.enter(now, now.plusMillis(500)).toCompletableFuture().join())
        .as("nobody came back: a new user finds the free slot")
        .isInstanceOf(Entry.Admitted.class);
  }

  /**
   * Users told to come back who come back and are answered without admission (the pool ran out
   * meanwhile) count as returns: the share stays 1; had they not been counted, it would be 0, and
   * the next new users would be told none of the book's wait.
   */
  @Test
  void usersAnsweredWithoutAdmissionWhenTheyCameBackCountAsReturns() {
    FairAdmission counted = withAppointments(4, 10, () -> 0.5);
    FairAdmission uncounted = withAppointments(4, 10, () -> 0.5);
    for (FairAdmission admission : List.of(counted, uncounted)) {
      measureHoldTime(admission, Duration.ofMillis(100)); // a turn every 25 ms
    }
    Instant burst = clock.instant();
    for (int i = 0; i < 40; i++) { // turns up to 1 s ahead
      for (FairAdmission admission : List.of(counted, uncounted)) {
        CompletableFuture<Entry> entry =
            admission.enter(burst, burst.plusMillis(10)).toCompletableFuture();
        if (entry.isDone() && entry.join() instanceof Entry.Admitted admitted) {
          admitted.permit().release(Result.IGNORED);
        }
      }
    }
    clock.move(Duration.ofMillis(1_500));
    for (int i = 0; i < 40; i++) {
      counted.cameBack(T0);
    }
    clock.move(Duration.ofMillis(1_600));
    assertThat(counted.showUpShare()).isEqualTo(1);
    assertThat(uncounted.showUpShare()).isZero();
  }

  /**
   * A burst of new users who then all went away (a load test that ended, clients that gave up)
   * leaves turns in the book for seconds ahead; once the users due back have not come, a new user
   * on the idle instance is served at once instead of being told to wait for them.
   */
  @Test
  void anIdleInstanceDropsTheTurnsOfUsersWhoWentAway() {
    FairAdmission admission = withAppointments(4, 10, () -> 0.5);
    measureHoldTime(admission, Duration.ofMillis(100)); // a turn every 25 ms
    Instant burst = clock.instant();
    for (int i = 0; i < 200; i++) { // turns up to 5 s ahead
      CompletableFuture<Entry> entry =
          admission.enter(burst, burst.plusMillis(100)).toCompletableFuture();
      if (entry.isDone() && entry.join() instanceof Entry.Admitted admitted) {
        admitted.permit().release(Result.IGNORED);
      }
    }
    clock.move(Duration.ofMillis(500));
    Instant soon = clock.instant();
    assertThat(refused(admission.enter(soon, soon.plusMillis(100))).reason())
        .as("the users due back may still come")
        .isEqualTo(Reason.DEADLINE);
    assertThat(admission.bookResets()).isZero();

    clock.move(Duration.ofMillis(2_600)); // those due in the second after the burst did not come
    Instant later = clock.instant();
    assertThat(admission.enter(later, later.plusMillis(100)).toCompletableFuture().join())
        .isInstanceOf(Entry.Admitted.class);
    assertThat(admission.bookResets()).isEqualTo(1);
    assertThat(admission.showUpShare()).as("none of those due came back").isZero();
  }

  /**
   * A sale whose first burst booked turns 75 s ahead, then sold out: every user told to come back
   * came back as told (answered on the sold-out proof, without admission), the last ones at the
   * longest Retry-After, 30 s. The book still reaches over 40 s beyond that, for nobody: once the
   * second after the last time told has passed, a new user, of this campaign or another, on the
   * idle instance is served at once. Within that second the users due may still come, and the
   * book holds.
   */
  @Test
  void anIdleInstanceDropsTheTurnsOfASaleWhoseUsersAllCameBack() {
    for (long after : new long[] {500, 1_500}) { // ms after the last users told came back
      AdmissionConfig config = config(4, 10, true, Duration.ofMillis(150));
      FairAdmission admission =
          new FairAdmission(config, AdmissionFactory.limiter(config), clock, timer, () -> 0.5);
      measureHoldTime(admission, Duration.ofMillis(100)); // a turn every 25 ms
      Instant burst = clock.instant();
      Map<Integer, Instant> dueAt = new HashMap<>();
      for (int i = 1; i <= 3_000; i++) { // no time to wait: each told a turn, up to 75 s ahead
        Entry.Refused told = refused(admission.enter(T0.plusMillis(i), burst));
        dueAt.put(i, burst.plus(told.retryAfter()));
      }
      assertThat(admission.booked()).isGreaterThan(Duration.ofSeconds(70));
      // each user comes back in the second they were told (here at its end), to a sold-out pool
      for (int second = 1; second <= 30; second++) {
        clock.move(Duration.ofSeconds(1));
        for (Map.Entry<Integer, Instant> user : dueAt.entrySet()) {
          if (user.getValue().isAfter(clock.instant().minusSeconds(1))
              && !user.getValue().isAfter(clock.instant())) {
            admission.cameBack(T0.plusMillis(user.getKey()));
          }
        }
      }
      clock.move(Duration.ofMillis(after));
      Instant now = clock.instant();
      assertThat(admission.booked()).as("the book reaches ahead").isGreaterThan(Duration.ofSeconds(40));
      CompletableFuture<Entry> next =
          admission.enter(now, now.plusMillis(100)).toCompletableFuture();
      if (after < 1_000) {
        assertThat(refused(next).reason())
            .as("those told 30 s may still come")
            .isEqualTo(Reason.DEADLINE);
        assertThat(admission.bookResets()).isZero();
      } else {
        admitted(next).release(Result.SUCCESS);
        assertThat(admission.bookResets()).isEqualTo(1);
        assertThat(admission.booked()).isLessThan(Duration.ofSeconds(1));
      }
    }
  }

  /**
   * A new user whose turn in the book comes after their wait is told what {@code turnToTell} says
   * of it (here: no later than the pool's expected end), never later than their own turn; it is
   * asked only of users refused for a turn beyond their wait; and the book still advances, so the
   * next user's own turn is later again.
   */
  @Test
  void aNewUserIsToldNoTurnLaterThanTheLatestWorthTelling() {
    FairAdmission admission = withAppointments(1, 10, () -> 0.5);
    measureHoldTime(admission, Duration.ofMillis(400)); // a turn every 400 ms
    Instant now = clock.instant();
    AtomicInteger asked = new AtomicInteger();
    FairAdmission.TurnToTell latest =
        (turn, arrival) -> {
          asked.incrementAndGet();
          return now.plusMillis(1_000);
        };

    // the first turn, at 400 ms, is within the wait of 500 ms: admitted to the free slot, not asked
    admitted(admission.enter(now, now.plusMillis(500), latest));
    assertThat(asked).hasValue(0);
    assertThat(refused(admission.enter(now, now.plusMillis(500), latest)).retryAfter())
        .as("its own turn, 800 ms, comes before the latest")
        .isEqualTo(Duration.ofMillis(800));
    assertThat(refused(admission.enter(now, now.plusMillis(500), latest)).retryAfter())
        .as("its own turn, 1,200 ms, comes after the latest")
        .isEqualTo(Duration.ofMillis(1_000));
    assertThat(refused(admission.enter(now, now.plusMillis(500), FairAdmission.TurnToTell.AS_BOOKED)).retryAfter())
        .as("the book went on: 1,600 ms")
        .isEqualTo(Duration.ofMillis(1_600));
    assertThat(asked).hasValue(2);
  }

  /**
   * A returning user refused from the line (here: the line was full and they came last of those in
   * it) is told to come back at their expected turn, and that return is booked: a new user who
   * comes while they are away is told a turn after it, instead of finding the book short of it.
   */
  @Test
  void aReturnToldFromTheLineIsBookedAheadOfLaterNewUsers() {
    FairAdmission admission = withAppointments(1, 2, () -> 0.5);
    measureHoldTime(admission, Duration.ofMillis(100));
    Instant now = clock.instant();
    admitted(admission.enter(now, now.plusMillis(500))); // a new user, booked 100 ms ahead
    admission.enterAgain(T0.plusMillis(1), LATER); // returning users, in line
    admission.enterAgain(T0.plusMillis(2), LATER);
    Entry.Refused full = refused(admission.enterAgain(T0.plusMillis(3), LATER));
    assertThat(full.reason()).isEqualTo(Reason.QUEUE_FULL);
    assertThat(full.retryAfter()).as("two before it: 300 ms").isEqualTo(Duration.ofMillis(300));

    Entry.Refused later = refused(admission.enter(now, now.plusMillis(250)));
    assertThat(later.retryAfter())
        .as("a turn after the return booked for the user refused from the line")
        .isGreaterThan(full.retryAfter());
  }

  /**
   * A fleet floor (the furthest turn other instances told, here 5 s ahead) delays new users: one
   * whose wait ends before it is refused at once and told the floor; later new users too, though
   * their own turns (50 ms each here) come sooner; a returning user is not affected and takes the
   * free slot. The book, as promised to the fleet, holds this instance's own turns only, and a
   * floor that falls later does not tell a later click an earlier turn.
   */
  @Test
  void aFleetFloorDelaysNewUsersTurnsButNotReturningUsers() {
    FairAdmission admission = withAppointments(2, 10, () -> 0.5);
    measureHoldTime(admission, Duration.ofMillis(100));
    admission.useFleetFloor(() -> Duration.ofSeconds(5));
    Instant now = clock.instant();

    Entry.Refused first = refused(admission.enter(now, now.plusSeconds(2)));
    Entry.Refused second = refused(admission.enter(now, now.plusSeconds(2)));
    assertThat(first.reason()).isEqualTo(Reason.DEADLINE);
    assertThat(first.retryAfter()).isEqualTo(Duration.ofSeconds(5));
    assertThat(second.retryAfter()).isEqualTo(Duration.ofSeconds(5));
    assertThat(admission.promised())
        .as("its own two turns, not the floor: no echo back to the fleet")
        .isEqualTo(Duration.ofMillis(100));
    assertThat(admission.fleetFloor()).isEqualTo(Duration.ofSeconds(5));

    admitted(admission.enterAgain(T0, now.plusSeconds(2)));

    admission.useFleetFloor(() -> Duration.ofSeconds(1)); // the others' books ran down
    assertThat(refused(admission.enter(now, now.plusSeconds(2))).retryAfter())
        .as("no earlier turn than a click before it was told")
        .isEqualTo(Duration.ofSeconds(5));
    clock.move(Duration.ofSeconds(5));
    Instant later = clock.instant();
    assertThat(refused(admission.enter(later, later.plusMillis(500))).retryAfter())
        .as("once that turn has passed, the floor read now")
        .isEqualTo(Duration.ofSeconds(1));
  }

  /**
   * Two instances that read each other's reach do not leapfrog: each keeps booking its own users a
   * turn each, however long both run, and tells them the other's reach when that is further.
   */
  @Test
  void twoInstancesReadingEachOthersReachDoNotLeapfrog() {
    FairAdmission a = withAppointments(2, 10, () -> 0.5);
    FairAdmission b = withAppointments(2, 10, () -> 0.5);
    measureHoldTime(a, Duration.ofMillis(100));
    measureHoldTime(b, Duration.ofMillis(100));
    a.useFleetFloor(b::promised);
    b.useFleetFloor(a::promised);
    Instant now = clock.instant();
    Duration last = Duration.ZERO;
    for (int i = 0; i < 20; i++) {
      last = refused(a.enter(now, now.plusMillis(10))).retryAfter();
      refused(b.enter(now, now.plusMillis(10)));
    }
    // 20 new users each, 50 ms a turn: 1 s of turns on each, not 2 s (the sum of both).
    assertThat(a.promised()).isEqualTo(Duration.ofSeconds(1));
    assertThat(b.promised()).isEqualTo(Duration.ofSeconds(1));
    assertThat(last).isEqualTo(Duration.ofSeconds(1));
  }

  /**
   * A floor that falls within a new user's wait lets them join the line, and a floor applies even
   * before this instance has measured a claim (a fresh instance joining a sale); the fresh
   * instance posts no reach of its own for it.
   */
  @Test
  void aFleetFloorAppliesToAFreshInstanceAndWithinTheWaitTheUserJoinsTheLine() {
    FairAdmission fresh = withAppointments(2, 10, () -> 0.5);
    fresh.useFleetFloor(() -> Duration.ofSeconds(3));
    Instant now = clock.instant();
    assertThat(refused(fresh.enter(now, now.plusSeconds(2))).retryAfter())
        .isEqualTo(Duration.ofSeconds(3));
    assertThat(fresh.promised()).isZero();
    admitted(fresh.enter(now, now.plusSeconds(4)));

    FairAdmission alone = withAppointments(2, 10, () -> 0.5);
    admitted(alone.enter(now, now.plusSeconds(2)));
    assertThat(alone.promised()).isZero();
    assertThat(alone.fleetFloor()).isZero();
  }

  /**
   * With appointments, a claim refused from the line (its wait ended, or the line was full) is
   * told its expected turn by its place, without jitter: those before it over the drain rate.
   */
  @Test
  void withAppointmentsARefusalFromTheLineIsToldItsTurnWithoutJitter() {
    FairAdmission admission = withAppointments(1, 1, () -> 0.999);
    measureHoldTime(admission, Duration.ofMillis(100));
    admitted(admission.enterAgain(T0, LATER));
    CompletionStage<Entry> waiting = admission.enterAgain(T0.plusSeconds(1), LATER);
    Entry.Refused bumped = refused(admission.enterAgain(T0.plusSeconds(2), LATER));
    assertThat(bumped.reason()).isEqualTo(Reason.QUEUE_FULL);
    assertThat(bumped.retryAfter()).as("one waits before it: its turn after two holds")
        .isEqualTo(Duration.ofMillis(200));
    assertThat(waiting.toCompletableFuture()).isNotDone();
  }

  /**
   * With {@code hold-grace}, a user refused from the line holds their place while they are due:
   * the slot that frees up in that moment waits for them instead of going to a later arrival in
   * line, and back, they take it. Without holding, the later arrival takes it.
   */
  @Test
  void aUserDueBackHoldsAFreeSlotAgainstALaterArrival() {
    for (boolean holding : new boolean[] {true, false}) {
      FairAdmission admission = withHold(holding ? Duration.ofMillis(150) : Duration.ZERO);

      CompletionStage<Entry> late = laterArrivalWhileEarlyIsDue(admission);

      if (!holding) {
        admitted(late);
        continue;
      }
      assertThat(late.toCompletableFuture()).as("the slot waits for the user due back").isNotDone();
      assertThat(admission.inFlight()).isZero();
      FairAdmission.Permit back = admitted(admission.enterAgain(EARLY_IN_TICKET, LATER));
      assertThat(late.toCompletableFuture()).isNotDone();
      back.release(Result.SUCCESS);
      admitted(late);
    }
  }

  /**
   * A user due back who comes back and is answered without admission (the pool proven empty, the
   * campaign closed) holds the free slot no longer: the later arrival in line gets it at once.
   */
  @Test
  void aUserDueBackAnsweredWithoutAdmissionHoldsNoSlot() {
    FairAdmission admission = withHold(Duration.ofMillis(150));
    CompletionStage<Entry> late = laterArrivalWhileEarlyIsDue(admission);
    assertThat(late.toCompletableFuture()).isNotDone();

    admission.cameBack(EARLY_IN_TICKET);

    admitted(late);
  }

  /**
   * A user due back who does not come back (or comes back to another instance) holds a free slot
   * only until their grace has passed: then the line gets it, without another claim coming.
   */
  @Test
  void aUserDueBackHoldsASlotOnlyUntilTheirGraceHasPassed() {
    FairAdmission admission = withHold(Duration.ofMillis(150));
    CompletionStage<Entry> late = laterArrivalWhileEarlyIsDue(admission);
    clock.move(Duration.ofMillis(149));
    timer.fireDue();
    assertThat(late.toCompletableFuture()).isNotDone();

    clock.move(Duration.ofMillis(2));
    timer.fireDue();

    admitted(late);
  }

  /**
   * Users due back one after another, none of them coming back, leave a free slot idle for at most
   * {@code max-holding} (here as short as it may be: {@code hold-grace}, 150 ms) in a row: then
   * the later arrival in line gets it, though the second user is still within their grace (seen
   * late, or not at all, they would otherwise keep it idle for as long as users kept becoming
   * due).
   */
  @Test
  void freeSlotsAreLeftToUsersDueBackAtMostMaxHoldingInARow() {
    AdmissionConfig config =
        config(1, 1, true, Duration.ofMillis(150), 4, 2, true, Duration.ofMillis(150));
    FairAdmission admission =
        new FairAdmission(config, AdmissionFactory.limiter(config), clock, timer, () -> 0.5);
    measureHoldTime(admission, Duration.ofMillis(100));
    FairAdmission.Permit holder = admitted(admission.enterAgain(T0, LATER));
    Entry.Refused first = refused(admission.enterAgain(EARLY, clock.instant().plusMillis(50)));
    Instant firstDue = clock.instant().plus(first.retryAfter());
    clock.move(Duration.ofMillis(50));
    Entry.Refused second =
        refused(admission.enterAgain(EARLY.plusMillis(1), clock.instant().plusMillis(50)));
    Instant secondDue = clock.instant().plus(second.retryAfter());
    assertThat(secondDue)
        .as("due after the first, within the first's grace")
        .isAfter(firstDue)
        .isBefore(firstDue.plusMillis(150));
    CompletionStage<Entry> late = admission.enterAgain(T0.plusSeconds(2), LATER);
    clock.move(Duration.between(clock.instant(), firstDue));
    holder.release(Result.SUCCESS);

    clock.move(Duration.ofMillis(149));
    timer.fireDue();
    assertThat(late.toCompletableFuture()).as("held for the users due").isNotDone();
    assertThat(admission.holdsCut()).isZero();
    clock.move(Duration.ofMillis(2));
    timer.fireDue();

    admitted(late);
    assertThat(admission.holdsCut()).isEqualTo(1);
  }

  /**
   * A claim refused from the line is told its turn one drain interval (here 100 ms) later for
   * every claim waiting before it and for every {@code returns-per-slot} users told to come back
   * who first arrived earlier and are neither back nor past their grace. Four returning users,
   * refused in the order 3, 1, 4, 2 of their first arrivals, have 0, 0, 2 and 1 earlier users
   * away: with one return per slot they are told 1, 1, 3 and 2 turns; with two, 1, 1, 2 and 1.5;
   * off, one turn each. A user back here, or past their grace, no longer counts.
   */
  @Test
  void aUserRefusedFromTheLineIsToldATurnAfterEarlierUsersAway() {
    Map<Double, List<Long>> expected =
        Map.of(1.0, List.of(100L, 100L, 300L, 200L), 2.0, List.of(100L, 100L, 200L, 150L),
            0.0, List.of(100L, 100L, 100L, 100L));
    for (Map.Entry<Double, List<Long>> returns : expected.entrySet()) {
      AdmissionConfig config = config(1, 1, true, Duration.ofMillis(150), returns.getKey());
      FairAdmission admission =
          new FairAdmission(config, AdmissionFactory.limiter(config), clock, timer, () -> 0.5);
      measureHoldTime(admission, Duration.ofMillis(100));
      admitted(admission.enterAgain(T0, LATER));
      Instant[] arrivals = new Instant[5];
      for (int i = 1; i <= 4; i++) {
        arrivals[i] = T0.plusSeconds(1).plusMillis(20L * i);
      }
      List<Long> told = new ArrayList<>();
      for (int user : new int[] {3, 1, 4, 2}) {
        Entry.Refused refused =
            refused(admission.enterAgain(arrivals[user], clock.instant().plusMillis(50)));
        assertThat(refused.reason()).isEqualTo(Reason.DEADLINE);
        told.add(refused.retryAfter().toMillis());
      }
      assertThat(told).as("returns per slot %s", returns.getKey())
          .containsExactlyElementsOf(returns.getValue());
      if (returns.getKey() != 1.0) {
        continue;
      }
      // user 1 is back and waits in line (ahead of user 4); user 3 is not counted once past grace
      CompletionStage<Entry> back = admission.enterAgain(arrivals[1], LATER);
      assertThat(back.toCompletableFuture()).isNotDone();
      clock.move(Duration.ofMillis(251));
      Entry.Refused fourth = refused(admission.enterAgain(arrivals[4], clock.instant()));
      assertThat(fourth.retryAfter())
          .as("user 1 waiting, user 2 away (due at 200 ms), user 3 gone after its grace")
          .isEqualTo(Duration.ofMillis(300));
    }
  }

  /**
   * Users away count only as far as users told to come back do: after seconds in which new users
   * were told turns (40 a second, one every 25 ms) and none came back (clients that gave up), a
   * claim refused from the line is told its place among the claims waiting alone, one turn,
   * though the users told the latest turns are still away; while they might come back, the same
   * refusal counts them.
   */
  @Test
  void usersAwayWhoDoNotComeBackDelayNobody() {
    AdmissionConfig config = config(4, 1, true, Duration.ofMillis(150), 1);
    FairAdmission admission =
        new FairAdmission(config, AdmissionFactory.limiter(config), clock, timer, () -> 0.5);
    measureHoldTime(admission, Duration.ofMillis(100)); // a turn every 25 ms
    for (int i = 0; i < 4; i++) {
      admitted(admission.enterAgain(T0, LATER));
    }
    Instant arrival = T0.plusSeconds(1);
    Entry.Refused before = null;
    for (int second = 0; second < 8; second++) {
      for (int user = 0; user < 60; user++) {
        arrival = clock.instant();
        refused(admission.enter(arrival, arrival.plusMillis(1)));
        clock.move(Duration.ofMillis(15));
      }
      if (second == 0) {
        before = refused(admission.enterAgain(clock.instant(), clock.instant()));
      }
      clock.move(Duration.ofMillis(100));
    }
    assertThat(before.retryAfter())
        .as("the 31 of the first second's users not yet past their grace count before it")
        .isEqualTo(Duration.ofMillis(25 * 32));
    assertThat(admission.showUpShare()).as("nobody came back but the one claim above")
        .isLessThan(0.01);

    Entry.Refused late = refused(admission.enterAgain(clock.instant(), clock.instant()));

    assertThat(late.retryAfter())
        .as("one turn, and a share of a turn for the users away: not their 30-odd turns")
        .isBetween(Duration.ofMillis(25), Duration.ofMillis(30));
  }

  /**
   * What an instance posts as held back is the earliest user due back, not a claim waiting in its
   * line (only it can serve those); none once the user came back.
   */
  @Test
  void whatAnInstanceHoldsBackIsItsEarliestUserDueBack() {
    FairAdmission admission = withHold(Duration.ofMillis(150));
    assertThat(admission.heldFrom()).isNull();
    CompletionStage<Entry> late = laterArrivalWhileEarlyIsDue(admission);
    assertThat(admission.heldFrom()).as("the user due back").isEqualTo(EARLY_IN_TICKET);

    FairAdmission busy = withHold(Duration.ofMillis(150));
    measureHoldTime(busy, Duration.ofMillis(100));
    admitted(busy.enterAgain(T0, LATER));
    assertThat(busy.enterAgain(T0.plusSeconds(2), LATER).toCompletableFuture()).isNotDone();
    assertThat(busy.heldFrom()).as("a claim waiting in line is not posted").isNull();

    admission.cameBack(EARLY_IN_TICKET);
    admitted(late);
    assertThat(admission.heldFrom()).isNull();
  }

  /**
   * While another instance holds back an earlier arrival (the fleet front), a free slot here is
   * left idle rather than given to a later one, which waits in line; it is served once a new
   * reading of the fleet allows it, or once the reading lapses without a new one. An arrival at
   * or before the front is served at once.
   */
  /**
   * A fleet front that stands for seconds holds free slots here for at most {@code max-holding} in
   * a row: then the later arrival in line is served, though the reading still stands.
   */
  @Test
  void aFleetFrontHoldsFreeSlotsAtMostMaxHoldingInARow() {
    AdmissionConfig config =
        config(1, 5, false, Duration.ofMillis(150), 4, 2, true, Duration.ofMillis(500));
    FairAdmission admission =
        new FairAdmission(config, AdmissionFactory.limiter(config), clock, timer, () -> 0.5);
    admission.useFleetFront(
        () -> new FairAdmission.FleetFront(T0.plusSeconds(1), T0.plusSeconds(10)));

    admitted(admission.enterAgain(T0.plusSeconds(1), LATER)).release(Result.SUCCESS);
    CompletionStage<Entry> late = admission.enterAgain(T0.plusSeconds(2), LATER);
    clock.move(Duration.ofMillis(499));
    timer.fireDue();
    assertThat(late.toCompletableFuture()).as("held for the click elsewhere").isNotDone();

    clock.move(Duration.ofMillis(2));
    timer.fireDue();
    admitted(late);
    assertThat(admission.holdsCut()).isEqualTo(1);
  }

  @Test
  void anEarlierArrivalHeldElsewhereKeepsFreeSlotsFromLaterOnes() {
    // a hold-grace beyond the reading's 10 s: the reading, not the bound on holding, ends the hold
    AdmissionConfig config = config(1, 5, false, Duration.ofSeconds(20));
    FairAdmission admission =
        new FairAdmission(config, AdmissionFactory.limiter(config), clock, timer, () -> 0.5);
    AtomicReference<FairAdmission.FleetFront> front =
        new AtomicReference<>(new FairAdmission.FleetFront(T0.plusSeconds(1), T0.plusSeconds(10)));
    admission.useFleetFront(front::get);

    admitted(admission.enterAgain(T0.plusSeconds(1), LATER)).release(Result.SUCCESS);
    CompletionStage<Entry> late = admission.enterAgain(T0.plusSeconds(2), LATER);
    assertThat(late.toCompletableFuture()).as("waits though the slot is free").isNotDone();
    assertThat(admission.inFlight()).isZero();
    assertThat(admission.fleetSlotsHeld()).isPositive();

    front.set(new FairAdmission.FleetFront(T0.plusSeconds(2), T0.plusSeconds(10)));
    admission.fleetRead();
    admitted(late).release(Result.SUCCESS);

    CompletionStage<Entry> later = admission.enterAgain(T0.plusSeconds(5), LATER);
    assertThat(later.toCompletableFuture()).isNotDone();
    clock.move(Duration.ofSeconds(10));
    timer.fireDue();
    assertThat(later.toCompletableFuture()).as("the reading stands until its end").isNotDone();
    clock.move(Duration.ofMillis(1));
    timer.fireDue();
    admitted(later);
  }

  /**
   * The drain rate learns only from claims that ran: claims that failed after holding their slot
   * for seconds (a store that stopped answering) leave it as it was, so users refused meanwhile are
   * told to come back when the store's usual pace would serve them.
   */
  @Test
  void claimsThatFailedDoNotSlowTheDrainRate() {
    FairAdmission admission = admission(2, 0, () -> 0.0);
    measureHoldTime(admission, Duration.ofMillis(100));
    assertThat(admission.drainRate()).isEqualTo(20.0);
    FairAdmission.Permit failed = admitted(admission.enter(T0, LATER));
    clock.move(Duration.ofSeconds(2));
    failed.release(Result.DROPPED);
    assertThat(admission.drainRate()).isEqualTo(20.0);
  }

  @Test
  void drainRefusesTheWaitingAndEveryLaterClaim() {
    FairAdmission admission = admission(1, 10, () -> 0.5);
    FairAdmission.Permit holder = admitted(admission.enter(T0, LATER));
    CompletionStage<Entry> a = admission.enter(T0, LATER);
    CompletionStage<Entry> b = admission.enter(T0, LATER);

    admission.drain();

    assertThat(refused(a).reason()).isEqualTo(Reason.SHUTTING_DOWN);
    assertThat(refused(b).reason()).isEqualTo(Reason.SHUTTING_DOWN);
    assertThat(refused(admission.enter(T0, LATER)).reason()).isEqualTo(Reason.SHUTTING_DOWN);
    assertThat(admission.inFlight()).isEqualTo(1);
    holder.release(Result.SUCCESS);
    assertThat(admission.inFlight()).isZero();
    assertThat(admission.refused(Reason.SHUTTING_DOWN)).isEqualTo(3);
    assertThat(timer.pending()).isZero();
  }

  @Test
  void aPermitIsReleasedOnlyOnce() {
    FairAdmission admission = admission(1, 10, () -> 0.5);
    FairAdmission.Permit holder = admitted(admission.enter(T0, LATER));
    CompletionStage<Entry> a = admission.enter(T0, LATER);
    CompletionStage<Entry> b = admission.enter(T0, LATER);

    holder.release(Result.SUCCESS);
    holder.release(Result.SUCCESS);

    assertThat(a.toCompletableFuture()).isDone();
    assertThat(b.toCompletableFuture()).isNotDone();
    assertThat(admission.inFlight()).isEqualTo(1);
  }

  /** A caller who goes away while waiting leaves the line; one admitted meanwhile gives it back. */
  @Test
  void aWithdrawnClaimGivesUpItsPlace() {
    FairAdmission admission = admission(1, 10, () -> 0.5);
    FairAdmission.Permit holder = admitted(admission.enter(T0, LATER));
    CompletionStage<Entry> gone = admission.enter(T0, LATER);
    CompletionStage<Entry> next = admission.enter(T0.plusSeconds(1), LATER);

    gone.toCompletableFuture().cancel(false);
    assertThat(admission.queued()).isEqualTo(1);
    holder.release(Result.SUCCESS);
    admitted(next).release(Result.SUCCESS);
    assertThat(admission.inFlight()).isZero();
    assertThat(timer.pending()).isZero();
  }

  /**
   * Many threads entering and releasing at once: every claim is admitted exactly once, never more
   * than the limit at a time, and nothing is left waiting or held.
   */
  @Test
  void underConcurrencyTheLimitHoldsAndEveryClaimIsServedOnce() throws Exception {
    int limit = 4;
    int threads = 8;
    int perThread = 2_000;
    FairAdmission admission = admission(limit, threads * perThread, () -> 0.5);
    AtomicInteger running = new AtomicInteger();
    AtomicInteger mostRunning = new AtomicInteger();
    AtomicInteger served = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        done.add(
            pool.submit(
                () -> {
                  List<CompletableFuture<Void>> mine = new ArrayList<>();
                  for (int i = 0; i < perThread; i++) {
                    mine.add(
                        admission
                            .enter(T0.plusMillis(i), LATER)
                            .toCompletableFuture()
                            .thenAccept(
                                entry -> {
                                  int now = running.incrementAndGet();
                                  mostRunning.accumulateAndGet(now, Math::max);
                                  served.incrementAndGet();
                                  running.decrementAndGet();
                                  ((Entry.Admitted) entry).permit().release(Result.SUCCESS);
                                }));
                  }
                  mine.forEach(CompletableFuture::join);
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get(120, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(served).hasValue(threads * perThread);
    assertThat(mostRunning.get()).isBetween(1, limit);
    assertThat(admission.inFlight()).isZero();
    assertThat(admission.queued()).isZero();
  }

  /** Claims admitted after a wait in line are counted with their waits; those that found a slot not. */
  @Test
  void claimsThatWaitedAreCountedWithTheirWait() {
    FairAdmission admission = admission(1, 10, () -> 0.5);
    FairAdmission.Permit holder = admitted(admission.enter(T0, LATER));
    CompletionStage<Entry> first = admission.enter(T0.plusSeconds(1), LATER);
    CompletionStage<Entry> second = admission.enter(T0.plusSeconds(2), LATER);
    clock.move(Duration.ofMillis(300));
    holder.release(Result.SUCCESS);
    clock.move(Duration.ofMillis(200));
    admitted(first).release(Result.SUCCESS);
    admitted(second).release(Result.SUCCESS);

    assertThat(admission.waitedClaims()).isEqualTo(2);
    assertThat(admission.waitedSeconds()).isCloseTo(0.8, within(1e-9));
  }

  @Test
  void adaptiveLimitsStartWithinTheirBounds() {
    for (String limit : AdmissionConfig.LIMITS) {
      AdmissionConfig config =
          new AdmissionConfig(
              limit, 20, 8, 64, 16, Duration.ZERO, Duration.ofSeconds(2), Duration.ofSeconds(30),
              Duration.ofSeconds(30), Duration.ZERO,
              0.5, 0.05, Duration.ofSeconds(1), 1.0,
              AdmissionConfig.DEVELOPMENT_SECRET, Duration.ofMinutes(10), Duration.ZERO,
            Duration.ZERO, true, 4, 2, true, Duration.ofMillis(500));
      assertThat(AdmissionFactory.limiter(config).getLimit()).as(limit).isEqualTo(20);
    }
  }

  /**
   * The drain rate is the slots freed per second while claims wait for one, as measured, not the
   * limit over the mean hold: here four slots free one every 25 ms (40 a second), each claim held
   * 100 ms; when the adaptive limit then falls to 1, the limit over the mean hold would say 10 a
   * second and tell every new user a turn four times too late. Ten windows after claims last
   * waited, the measure no longer stands.
   */
  @Test
  void theDrainRateIsMeasuredWhileClaimsWaitNotDerivedFromTheLimit() {
    SettableLimit limit = SettableLimit.startingAt(4);
    FairAdmission admission = withLimit(limit);
    drainFortyASecondWithClaimsWaiting(admission); // each runs 100 ms; one ends every 25 ms
    limit.setLimit(1);
    assertThat(admission.drainRate()).isCloseTo(40, within(2.0));

    clock.move(Duration.ofSeconds(11));
    assertThat(admission.drainRate()).as("the limit over the mean hold again").isCloseTo(10, within(0.5));
  }

  /**
   * A drain measured in one overload does not stand for the next. A sale drains 40 a second (four
   * slots, 100 ms each); 30 s later, long after that measure has lapsed, another starts with forty
   * slots of 100 ms (400 a second) and claims waiting behind them. From its first slots freed it
   * is not told the earlier sale's 40 a second: until it has a measure of its own, its drain is the
   * limit over the mean hold.
   */
  @Test
  void aDrainMeasuredInAnEarlierOverloadDoesNotStandForTheNext() {
    SettableLimit limit = SettableLimit.startingAt(4);
    FairAdmission admission = withLimit(limit);
    drainFortyASecondWithClaimsWaiting(admission);

    clock.move(Duration.ofSeconds(30));
    limit.setLimit(40);
    List<FairAdmission.Permit> running = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      running.add(admitted(admission.enterAgain(clock.instant(), LATER)));
    }
    List<CompletionStage<Entry>> waiting = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      waiting.add(admission.enterAgain(clock.instant(), LATER));
    }
    clock.move(Duration.ofMillis(100));
    for (int i = 0; i < 5; i++) { // one every 2.5 ms, as forty slots of 100 ms free up
      running.get(i).release(Result.SUCCESS);
      clock.move(Duration.ofNanos(2_500_000));
    }
    assertThat(waiting.get(4).toCompletableFuture()).isDone();
    // the limit over the mean hold (the tests' smoothing keeps the last: 110 ms), not 40 a second
    assertThat(admission.drainRate()).isCloseTo(40 / 0.110, within(1.0));
  }

  /**
   * A drain rate measured in a slow moment (a sale's cold first second) is not kept while the
   * instance then serves faster without claims waiting: the slots freed over the last window are
   * its floor.
   */
  @Test
  void theDrainRateIsNeverBelowTheSlotsFreedOverTheLastWindow() {
    FairAdmission admission = admission(1, 100, () -> 0.5);
    FairAdmission.Permit running = admitted(admission.enterAgain(clock.instant(), LATER));
    List<CompletionStage<Entry>> waiting = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      waiting.add(admission.enterAgain(clock.instant(), LATER));
    }
    for (CompletionStage<Entry> next : waiting) { // 100 ms each, claims waiting: 10 a second
      clock.move(Duration.ofMillis(100));
      running.release(Result.SUCCESS);
      running = admitted(next);
    }
    clock.move(Duration.ofMillis(100));
    running.release(Result.SUCCESS);
    assertThat(admission.drainRate()).isCloseTo(10, within(0.5));

    for (int i = 0; i < 100; i++) { // then 10 ms each, nobody waiting: 100 a second
      FairAdmission.Permit alone = admitted(admission.enterAgain(clock.instant(), LATER));
      clock.move(Duration.ofMillis(10));
      alone.release(Result.SUCCESS);
    }
    assertThat(admission.drainRate()).isGreaterThan(60);
  }

  /**
   * A drain measured while claims waited, then unused: users come back at the turns told from it
   * (one every 25 ms) and are served in 10 ms each, nobody waits, and the slots freed follow the
   * measure. After one window without a claim waiting it doubles each window, up to the limit
   * over the mean hold (four slots, 10 ms: 400 a second); with {@code idle-drain-growth} 1 it
   * stands as measured.
   */
  @Test
  void aDrainThatNoClaimWaitsForGrowsUpToTheLimitOverTheMeanHold() {
    for (double growth : new double[] {2, 1}) {
      FairAdmission admission = withIdleDrainGrowth(growth);
      drainFortyASecondWithClaimsWaiting(admission);
      List<Double> rates = new ArrayList<>();
      for (int i = 1; i <= 240; i++) { // 6 s: one every 25 ms, each done in 10 ms
        FairAdmission.Permit alone = admitted(admission.enterAgain(clock.instant(), LATER));
        clock.move(Duration.ofMillis(10));
        alone.release(Result.SUCCESS);
        clock.move(Duration.ofMillis(15));
        if (i % 40 == 0) {
          rates.add(admission.drainRate());
        }
      }
      if (growth == 1) {
        assertThat(rates).as("off").allSatisfy(rate -> assertThat(rate).isCloseTo(40, within(3.0)));
        continue;
      }
      assertThat(rates.get(0)).as("one window without a claim waiting").isCloseTo(40, within(4.0));
      assertThat(rates.get(1)).as("two").isCloseTo(80, within(8.0));
      assertThat(rates.get(2)).as("three").isCloseTo(160, within(16.0));
      assertThat(rates.get(5)).as("six: the limit over the mean hold").isCloseTo(400, within(1.0));
      assertThat(rates).allSatisfy(rate -> assertThat(rate).isLessThanOrEqualTo(400.5));
    }
  }

  /**
   * Claims that wait for slots that are not freed (a store that stopped answering) are no sign of
   * an idle instance: the measured drain stands.
   */
  @Test
  void aDrainDoesNotGrowWhileClaimsWait() {
    FairAdmission admission = withIdleDrainGrowth(2);
    drainFortyASecondWithClaimsWaiting(admission);
    FairAdmission.Permit quick = admitted(admission.enterAgain(clock.instant(), LATER));
    clock.move(Duration.ofMillis(10));
    quick.release(Result.SUCCESS); // the limit over the mean hold: 400 a second
    List<FairAdmission.Permit> stuck = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      stuck.add(admitted(admission.enterAgain(clock.instant(), LATER)));
    }
    CompletionStage<Entry> waiting = admission.enterAgain(clock.instant(), LATER);
    clock.move(Duration.ofSeconds(5));
    assertThat(waiting.toCompletableFuture()).isNotDone();
    assertThat(admission.drainRate()).isCloseTo(40, within(2.0));
    stuck.forEach(permit -> permit.release(Result.SUCCESS));
  }

  /** A line of 100 with appointments, in front of {@code limit}, which the test moves. */
  private FairAdmission withLimit(SettableLimit limit) {
    return new FairAdmission(
        config(4, 100, true), SimpleLimiter.newBuilder().limit(limit).build(), clock, timer, () -> 0.5);
  }

  /** Four slots, a line of 100, no appointments, the given {@code idle-drain-growth}. */
  private FairAdmission withIdleDrainGrowth(double growth) {
    AdmissionConfig config =
        config(4, 100, false, Duration.ZERO, 4, growth, true, maxHolding(Duration.ZERO));
    return new FairAdmission(config, AdmissionFactory.limiter(config), clock, timer, () -> 0.5);
  }

  /** Four slots, 60 claims waiting, each held 100 ms: one freed every 25 ms, 40 a second. */
  private void drainFortyASecondWithClaimsWaiting(FairAdmission admission) {
    ArrayDeque<FairAdmission.Permit> running = new ArrayDeque<>();
    for (int i = 0; i < 4; i++) {
      running.add(admitted(admission.enterAgain(clock.instant(), LATER)));
      clock.move(Duration.ofMillis(25));
    }
    List<CompletionStage<Entry>> waiting = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      waiting.add(admission.enterAgain(clock.instant(), LATER));
    }
    for (CompletionStage<Entry> next : waiting) {
      running.poll().release(Result.SUCCESS);
      running.add(admitted(next));
      clock.move(Duration.ofMillis(25));
    }
    while (!running.isEmpty()) {
      running.poll().release(Result.SUCCESS);
      clock.move(Duration.ofMillis(25));
    }
    assertThat(admission.drainRate()).isCloseTo(40, within(2.0));
  }

  /** Admits and releases one claim held for {@code hold}, so that the drain rate is measured. */
  private void measureHoldTime(FairAdmission admission, Duration hold) {
    FairAdmission.Permit permit = admitted(admission.enter(clock.instant(), LATER));
    clock.move(hold);
    permit.release(Result.SUCCESS);
  }

  /** Admission without appointments: Retry-After is the expected turn in line plus jitter. */
  /**
   * {@link FairAdmission#refuseAtOnce} refuses exactly the claims that entering would refuse at
   * once, with the same reason and Retry-After, and changes nothing for the others: two admissions
   * driven alike, one asked first whether it refuses at once (and entered only when it does not),
   * the other only entered, answer every claim alike, over random sales with and without
   * appointments, users due back held or not, short and long waits, returning users, slots given
   * back and waits that end.
   */
  @Test
  void refusingAtOnceRefusesWhatEnteringWouldAndChangesNothingElse() {
    for (long seed = 0; seed < 300; seed++) {
      java.util.Random plan = new java.util.Random(seed);
      boolean appointments = plan.nextBoolean();
      int limit = 1 + plan.nextInt(3);
      int maxQueued = plan.nextInt(6);
      Duration hold = plan.nextBoolean() ? Duration.ofMillis(150) : Duration.ZERO;
      MovableClock sale = new MovableClock(T0);
      Side asked = new Side(sale, limit, maxQueued, appointments, hold, seed);
      Side entered = new Side(sale, limit, maxQueued, appointments, hold, seed);
      FairAdmission.TurnToTell tell = (turn, arrival) -> min(turn, arrival.plusSeconds(3));
      int refusedAtOnce = 0;
      for (int step = 0; step < 400; step++) {
        sale.move(Duration.ofMillis(plan.nextInt(40)));
        int action = plan.nextInt(10);
        if (action < 6) {
          Instant now = sale.instant();
          Instant arrival = now.minusMillis(plan.nextInt(plan.nextBoolean() ? 50 : 5_000));
          Instant waitUntil = now.plusMillis(plan.nextInt(2_000) - 100);
          boolean returning = plan.nextInt(3) == 0;
          Instant turn =
              returning && plan.nextBoolean() ? now.plusMillis(plan.nextInt(60_000)) : null;
          Optional<Entry.Refused> atOnce =
              asked.admission.refuseAtOnce(arrival, turn, waitUntil, returning, tell);
          CompletionStage<Entry> viaEntering =
              returning
                  ? entered.admission.enterAgain(arrival, turn, waitUntil)
                  : entered.admission.enter(arrival, waitUntil, tell);
          CompletionStage<Entry> viaAsking =
              atOnce.<CompletionStage<Entry>>map(CompletableFuture::completedFuture)
                  .orElseGet(
                      () ->
                          returning
                              ? asked.admission.enterAgain(arrival, turn, waitUntil)
                              : asked.admission.enter(arrival, waitUntil, tell));
          if (atOnce.isPresent()) {
            refusedAtOnce++;
            assertThat(viaEntering.toCompletableFuture().getNow(null))
                .as("seed %d step %d", seed, step)
                .isEqualTo(atOnce.get());
          }
          asked.claims.add(viaAsking.toCompletableFuture());
          entered.claims.add(viaEntering.toCompletableFuture());
        } else if (action < 9) {
          int which = plan.nextInt(Math.max(1, asked.claims.size()));
          asked.release(which);
          entered.release(which);
        } else {
          asked.timer.fireDue();
          entered.timer.fireDue();
        }
        assertThat(asked.states()).as("seed %d step %d", seed, step).isEqualTo(entered.states());
        assertThat(asked.admission.booked()).isEqualTo(entered.admission.booked());
        assertThat(asked.admission.queued()).isEqualTo(entered.admission.queued());
      }
      assertThat(refusedAtOnce).as("seed %d refused some at once", seed).isPositive();
    }
  }

  private static Instant min(Instant a, Instant b) {
    return a.isBefore(b) ? a : b;
  }

  /** One of two admissions driven alike, with its own timer, jitter and claims. */
  private final class Side {
    final ManualTimer timer;
    final FairAdmission admission;
    final List<CompletableFuture<Entry>> claims = new ArrayList<>();
    final boolean[] released = new boolean[4096];

    Side(
        MovableClock sale,
        int limit,
        int maxQueued,
        boolean appointments,
        Duration hold,
        long seed) {
      this.timer = new ManualTimer(sale);
      java.util.Random jitter = new java.util.Random(seed);
      AdmissionConfig config = config(limit, maxQueued, appointments, hold);
      this.admission =
          new FairAdmission(
              config, AdmissionFactory.limiter(config), sale, timer, jitter::nextDouble);
    }

    void release(int which) {
      if (which >= claims.size() || released[which]) {
        return;
      }
      Entry entry = claims.get(which).getNow(null);
      if (entry instanceof Entry.Admitted admitted) {
        released[which] = true;
        admitted.permit().release(Result.SUCCESS);
      }
    }

    /** What became of every claim so far: admitted, refused (and how), or waiting. */
    List<Object> states() {
      List<Object> states = new ArrayList<>();
      for (CompletableFuture<Entry> claim : claims) {
        Entry entry = claim.getNow(null);
        states.add(entry == null ? "waiting" : entry instanceof Entry.Refused r ? r : "admitted");
      }
      return states;
    }
  }

  private FairAdmission admission(int limit, int maxQueued, DoubleSupplier random) {
    return admission(limit, maxQueued, random, false);
  }

  private FairAdmission withAppointments(int limit, int maxQueued, DoubleSupplier random) {
    return admission(limit, maxQueued, random, true);
  }

  /** User {@code early}'s first arrival, seen to the nanosecond. */
  private static final Instant EARLY = T0.plusSeconds(1).plusNanos(123_456);

  /** {@link #EARLY} as a ticket brings it back, to the microsecond. */
  private static final Instant EARLY_IN_TICKET = EARLY.truncatedTo(ChronoUnit.MICROS);

  /**
   * On {@link #withHold} (a turn every 100 ms once measured): the one slot held, user {@code
   * early} ({@link #EARLY}) refused from the line and told 100 ms, a later arrival waiting in line;
   * then {@code early} is due and the slot is freed. Returns the later arrival's entry.
   */
  private CompletionStage<Entry> laterArrivalWhileEarlyIsDue(FairAdmission admission) {
    measureHoldTime(admission, Duration.ofMillis(100));
    FairAdmission.Permit holder = admitted(admission.enterAgain(T0, LATER));
    Entry.Refused told = refused(admission.enterAgain(EARLY, clock.instant().plusMillis(50)));
    assertThat(told.retryAfter()).isEqualTo(Duration.ofMillis(100));
    CompletionStage<Entry> late = admission.enterAgain(T0.plusSeconds(2), LATER);
    clock.move(told.retryAfter());
    holder.release(Result.SUCCESS);
    return late;
  }

  /** One slot, room for one to wait, appointments, and users due back held for {@code grace}. */
  private FairAdmission withHold(Duration grace) {
    AdmissionConfig config = config(1, 1, true, grace);
    return new FairAdmission(config, AdmissionFactory.limiter(config), clock, timer, () -> 0.5);
  }

  private FairAdmission admission(
      int limit, int maxQueued, DoubleSupplier random, boolean appointments) {
    AdmissionConfig config = config(limit, maxQueued, appointments);
    return new FairAdmission(config, AdmissionFactory.limiter(config), clock, timer, random);
  }

  private static AdmissionConfig config(int limit, int maxQueued, boolean appointments) {
    return config(limit, maxQueued, appointments, Duration.ZERO);
  }

  /** {@link #config(int, int, boolean)} with {@code hold-grace} ({@code 0}: off), slack 0. */
  private static AdmissionConfig config(
      int limit, int maxQueued, boolean appointments, Duration holdGrace) {
    return config(limit, maxQueued, appointments, holdGrace, 4);
  }

  /** {@link #config(int, int, boolean, Duration)} with {@code returns-per-slot}. */
  private static AdmissionConfig config(
      int limit, int maxQueued, boolean appointments, Duration holdGrace, double returnsPerSlot) {
    return config(
        limit, maxQueued, appointments, holdGrace, returnsPerSlot, 2, true, maxHolding(holdGrace));
  }

  /** The default {@code max-holding}, 500 ms, or {@code holdGrace} if that is longer. */
  private static Duration maxHolding(Duration holdGrace) {
    return holdGrace.compareTo(Duration.ofMillis(500)) > 0 ? holdGrace : Duration.ofMillis(500);
  }

  /**
   * {@link #config(int, int, boolean, Duration, double)} with {@code idle-drain-growth}, {@code
   * early-when-idle} and {@code max-holding}.
   */
  private static AdmissionConfig config(
      int limit,
      int maxQueued,
      boolean appointments,
      Duration holdGrace,
      double returnsPerSlot,
      double idleDrainGrowth,
      boolean earlyWhenIdle,
      Duration maxHolding) {
    return new AdmissionConfig(
        "fixed", limit, 1, limit, maxQueued, Duration.ZERO, Duration.ofSeconds(2),
        Duration.ofSeconds(30),
        Duration.ofMinutes(5), Duration.ZERO, 0.5, 1, Duration.ofSeconds(1), 1.0,
        AdmissionConfig.DEVELOPMENT_SECRET, Duration.ofMinutes(10), holdGrace, Duration.ZERO,
        appointments, returnsPerSlot, idleDrainGrowth, earlyWhenIdle, maxHolding);
  }

  private static FairAdmission.Permit admitted(CompletionStage<Entry> entry) {
    CompletableFuture<Entry> done = entry.toCompletableFuture();
    assertThat(done).isDone();
    assertThat(done.join()).isInstanceOf(Entry.Admitted.class);
    return ((Entry.Admitted) done.join()).permit();
  }

  private static Entry.Refused refused(CompletionStage<Entry> entry) {
    CompletableFuture<Entry> done = entry.toCompletableFuture();
    assertThat(done).isDone();
    assertThat(done.join()).isInstanceOf(Entry.Refused.class);
    return (Entry.Refused) done.join();
  }

  private static FairAdmission.Permit permitOfLastServed(
      List<CompletionStage<Entry>> waiting, int[] arrivals, List<Integer> served) {
    int second = served.get(served.size() - 1);
    for (int i = 0; i < arrivals.length; i++) {
      if (arrivals[i] == second) {
        return admitted(waiting.get(i));
      }
    }
    throw new AssertionError("no claim arrived at " + second);
  }
}
