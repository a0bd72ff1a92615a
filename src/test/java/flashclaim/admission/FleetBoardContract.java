package flashclaim.admission;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.admission.FairAdmission.Entry;
import flashclaim.admission.FairAdmission.Result;
import flashclaim.testing.Concurrently;
import flashclaim.testing.MovableClock;
import flashclaim.testing.StoreClients;
import flashclaim.testing.StoreContract;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CompletableFuture;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of a {@link FleetBoard}, run against the real store by a subclass per store, with
 * {@value #CLIENTS} store clients of their own as {@value #CLIENTS} instances have, and no service:
 * an instance's entry is seen by the others and never by itself, a write replaces it, its age is
 * the store's and grows with time, stale entries are left out and deleted, and a withdrawn entry is
 * gone. Every test uses instance ids of its own and looks only at them.
 *
 * <p>Over it, the {@link FleetOrder}s of two admissions on one movable clock, each through its own
 * client: a new user of the second instance is told no earlier turn than the furthest the first
 * told, a returning user is not held back, a clean shutdown removes the floor, and a floor read
 * before the store failed counts down and is dropped once it is {@code stale-after} old.
 */
public abstract class FleetBoardContract extends StoreContract {
  private static final Duration FRESH = Duration.ofMinutes(1);
  private static final FleetConfig FLEET =
      new FleetConfig(true, Duration.ofSeconds(1), Duration.ofSeconds(3), true, Duration.ofMillis(500));

  private final MovableClock clock = new MovableClock(Instant.now());

  /** The ids this test published, withdrawn after it, so that no entry outlives its test. */
  private final List<String> published = new java.util.concurrent.CopyOnWriteArrayList<>();

  @AfterEach
  void withdrawWhatThisTestPublished() {
    published.forEach(id -> board(0).withdraw(id));
    published.clear();
  }

  private void publish(int client, String instanceId, Duration booked) {
    publish(client, instanceId, booked, null);
  }

  private void publish(int client, String instanceId, Duration booked, Instant heldFrom) {
    published.add(instanceId);
    board(client).publish(instanceId, booked, heldFrom);
  }

  private FleetBoard board(int client) {
    return clients().fleetBoard(client);
  }

  /** Instance ids of this test: a prefix no other test run uses, and a number. */
  private static String id(String prefix, int i) {
    return prefix + "-" + i;
  }

  private static String prefix() {
    return "contract-" + System.nanoTime();
  }

  /** The entries that client {@code client} reads as {@code self}, of this test's ids, by id. */
  private Map<String, FleetBoard.Entry> read(
      int client, String self, String prefix, Duration stale) {
    return board(client).others(self, stale).stream()
        .filter(e -> e.instanceId().startsWith(prefix + "-"))
        .collect(Collectors.toMap(FleetBoard.Entry::instanceId, e -> e, (a, b) -> a, TreeMap::new));
  }

  /**
   * Twelve instances publish at once through the three clients: each reads exactly the eleven
   * others, with the wait each wrote, fresh, and never its own.
   */
  @Test
  void everyInstanceSeesExactlyTheOthers() throws Exception {
    String prefix = prefix();
    int instances = 12;
    Concurrently.run(
        instances,
        i -> () -> {
          publish(i, id(prefix, i), Duration.ofMillis(1000 + i));
          return null;
        });

    List<Map<String, FleetBoard.Entry>> seen =
        Concurrently.run(instances, i -> () -> read(i + 1, id(prefix, i), prefix, FRESH));

    for (int i = 0; i < instances; i++) {
      Map<String, FleetBoard.Entry> others = seen.get(i);
      assertThat(others)
          .as("instance %d", i)
          .hasSize(instances - 1)
          .doesNotContainKey(id(prefix, i));
      for (int j = 0; j < instances; j++) {
        if (j != i) {
          FleetBoard.Entry entry = others.get(id(prefix, j));
          assertThat(entry.booked()).isEqualTo(Duration.ofMillis(1000 + j));
          assertThat(entry.age()).isGreaterThanOrEqualTo(Duration.ZERO).isLessThan(FRESH);
        }
      }
    }
  }

  /**
   * The earliest arrival an instance holds back travels with its entry, to the millisecond, and an
   * entry written without one (none held back) reads as none; a later write replaces it.
   */
  @Test
  void theEarliestHeldArrivalTravelsWithTheEntry() {
    String prefix = prefix();
    Instant held = Instant.parse("2026-11-27T05:00:00.123Z");
    publish(0, id(prefix, 0), Duration.ofSeconds(2), held);
    publish(1, id(prefix, 1), Duration.ofSeconds(2), null);

    Map<String, FleetBoard.Entry> seen = read(2, id(prefix, 2), prefix, FRESH);
    assertThat(seen.get(id(prefix, 0)).heldFrom()).isEqualTo(held);
    assertThat(seen.get(id(prefix, 1)).heldFrom()).isNull();

    publish(0, id(prefix, 0), Duration.ZERO, held.plusSeconds(1));
    assertThat(read(2, id(prefix, 2), prefix, FRESH).get(id(prefix, 0)).heldFrom())
        .isEqualTo(held.plusSeconds(1));
  }

  /** A later write of an instance replaces its entry: the others see the last wait it wrote. */
  @Test
  void aWriteReplacesTheInstancesEntry() {
    String prefix = prefix();
    publish(0, id(prefix, 0), Duration.ofSeconds(5));
    publish(0, id(prefix, 0), Duration.ofMillis(1500));

    Map<String, FleetBoard.Entry> seen = read(1, id(prefix, 1), prefix, FRESH);
    assertThat(seen).containsOnlyKeys(id(prefix, 0));
    assertThat(seen.get(id(prefix, 0)).booked()).isEqualTo(Duration.ofMillis(1500));
    assertThat(seen.get(id(prefix, 0)).ahead()).isLessThanOrEqualTo(Duration.ofMillis(1500));
  }

  /**
   * An entry's age is the time since it was written, as the store measures it: read twice, 1.5 s
   * apart, it has grown by about that (no instance clock is involved: the write carries no time).
   * Written again, it is young again.
   */
  @Test
  void theAgeGrowsWithTheStoresClock() throws InterruptedException {
    String prefix = prefix();
    publish(0, id(prefix, 0), Duration.ofSeconds(10));
    Duration first = read(1, id(prefix, 1), prefix, FRESH).get(id(prefix, 0)).age();
    Thread.sleep(1500);
    Duration second = read(2, id(prefix, 2), prefix, FRESH).get(id(prefix, 0)).age();

    assertThat(second.minus(first))
        .isGreaterThanOrEqualTo(Duration.ofMillis(1400))
        .isLessThan(Duration.ofSeconds(20));
    assertThat(read(2, id(prefix, 2), prefix, FRESH).get(id(prefix, 0)).ahead())
        .isLessThanOrEqualTo(Duration.ofSeconds(10).minus(second));

    publish(0, id(prefix, 0), Duration.ofSeconds(10));
    assertThat(read(1, id(prefix, 1), prefix, FRESH).get(id(prefix, 0)).age()).isLessThan(second);
  }

  /**
   * An entry older than {@code staleAfter} is left out, and deleted: read again with a longer
   * {@code staleAfter}, it is gone. A fresh one written at the same time by another instance stays.
   */
  @Test
  void staleEntriesAreLeftOutAndDeleted() throws InterruptedException {
    String prefix = prefix();
    publish(0, id(prefix, 0), Duration.ofSeconds(10));
    Thread.sleep(1200);
    publish(1, id(prefix, 1), Duration.ofSeconds(10));

    assertThat(read(2, id(prefix, 2), prefix, Duration.ofMillis(1000)))
        .containsOnlyKeys(id(prefix, 1));
    assertThat(read(0, id(prefix, 2), prefix, FRESH))
        .as("the stale entry was deleted")
        .containsOnlyKeys(id(prefix, 1));
  }

  /** A withdrawn entry is gone for every reader; withdrawing what is not there does nothing. */
  @Test
  void aWithdrawnEntryIsGone() {
    String prefix = prefix();
    publish(0, id(prefix, 0), Duration.ofSeconds(3));
    publish(1, id(prefix, 1), Duration.ofSeconds(3));
    assertThat(read(2, id(prefix, 2), prefix, FRESH)).hasSize(2);

    board(0).withdraw(id(prefix, 0));
    board(0).withdraw(id(prefix, 0));
    board(2).withdraw(id(prefix, 9));

    assertThat(read(2, id(prefix, 2), prefix, FRESH)).containsOnlyKeys(id(prefix, 1));
  }

  // ---------------------------------------------------------------- the fleet order over the store

  /**
   * Instance A books 40 new users a turn 100 ms apart (4 s ahead); after a round of A's order and
   * one of B's, B's floor is A's reach less the entry's age, and B's next new user is refused and
   * told a turn at or after it, while a returning user takes B's free slot at once. B's own entry
   * then reaches past A's. After A's clean shutdown, B's next round finds no floor.
   */
  @Test
  void aNewUserIsToldNoEarlierTurnThanAnotherInstanceTold() {
    String prefix = prefix();
    FairAdmission a = admission();
    FairAdmission b = admission();
    bookAhead(a, 40);
    Duration promised = a.promised();
    assertThat(promised).isBetween(Duration.ofMillis(3900), Duration.ofMillis(4000));
    FleetOrder orderA = new FleetOrder(board(0), FLEET, a, clock, id(prefix, 0));
    FleetOrder orderB = new FleetOrder(board(1), FLEET, b, clock, id(prefix, 1));
    b.useFleetFloor(orderB::floor);
    published.addAll(List.of(id(prefix, 0), id(prefix, 1)));

    orderA.tick();
    orderB.tick();
    Duration floor = orderB.floor();
    assertThat(floor).isLessThanOrEqualTo(promised).isGreaterThan(promised.minusSeconds(2));
    assertThat(b.fleetFloor()).isEqualTo(floor);

    Instant now = clock.instant();
    Entry.Refused refused = refused(b.enter(now, now.plusMillis(500)));
    assertThat(refused.retryAfter()).isGreaterThanOrEqualTo(floor);
    Entry back =
        b.enterAgain(now.minusSeconds(1), now.plusMillis(500)).toCompletableFuture().join();
    assertThat(back).as("a returning user").isInstanceOf(Entry.Admitted.class);
    ((Entry.Admitted) back).permit().release(Result.IGNORED);
    orderB.tick();
    // B posts its own turns only, not the floor it told: the books must not leapfrog.
    FleetBoard.Entry posted = read(2, id(prefix, 2), prefix, FRESH).get(id(prefix, 1));
    assertThat(posted == null ? Duration.ZERO : posted.booked()).isLessThan(floor);

    orderA.close();
    orderB.tick();
    assertThat(read(2, id(prefix, 2), prefix, FRESH)).doesNotContainKey(id(prefix, 0));
    assertThat(orderB.floor()).isZero();
    orderB.close();
    assertThat(read(2, id(prefix, 2), prefix, FRESH)).isEmpty();
  }

  /**
   * A refuses a user (its one slot taken) and tells them to come back; once they are due, after a
   * round of A's order and one of B's, B leaves its free slot idle rather than give it to a claim
   * that arrived later than that user, which waits in B's line, while a claim that arrived before
   * them is served by B at once. Once the user is back (here at A) and A's next round posts nobody
   * due, B's next round gives B's waiting claim the slot.
   */
  @Test
  void aLaterClickWaitsWhileAnEarlierUserIsDueBack() {
    String prefix = prefix();
    FairAdmission a = admission(Duration.ofSeconds(1));
    FairAdmission b = admission(Duration.ZERO);
    FleetOrder orderA = new FleetOrder(board(0), FLEET, a, clock, id(prefix, 0));
    FleetOrder orderB = new FleetOrder(board(1), FLEET, b, clock, id(prefix, 1));
    b.useFleetFront(orderB::front);
    published.addAll(List.of(id(prefix, 0), id(prefix, 1)));
    Instant now = clock.instant();
    Instant early = now.minusSeconds(2).truncatedTo(ChronoUnit.MILLIS);
    FairAdmission.Permit busy = admitted(a.enterAgain(now.minusSeconds(5), now.plusSeconds(60)));
    Entry.Refused told = refused(a.enterAgain(early, now.plusMillis(50)));
    assertThat(a.heldFrom()).as("not due yet").isNull();
    clock.move(told.retryAfter());
    assertThat(a.heldFrom()).isEqualTo(early);

    orderA.tick();
    orderB.tick();
    assertThat(orderB.front().servingUpTo())
        .as("the user due back at A, and the slack")
        .isEqualTo(early.plus(FLEET.holdSlack()));
    CompletionStage<Entry> later = b.enterAgain(now.minusSeconds(1), now.plusSeconds(60));
    assertThat(later.toCompletableFuture()).as("B's slot is free, and left idle").isNotDone();
    assertThat(b.inFlight()).isZero();
    assertThat(b.fleetSlotsHeld()).isPositive();
    admitted(b.enterAgain(now.minusSeconds(3), now.plusSeconds(60))).release(Result.IGNORED);

    busy.release(Result.IGNORED);
    admitted(a.enterAgain(early, clock.instant().plusSeconds(60))).release(Result.IGNORED);
    assertThat(a.heldFrom()).isNull();
    orderA.tick();
    orderB.tick();
    assertThat(orderB.front()).isNull();
    admitted(later).release(Result.IGNORED);
    orderA.close();
    orderB.close();
  }

  /**
   * B reads a floor of about 20 s, then its store connection fails: the floor counts down with B's
   * clock and is dropped once the last read that succeeded is {@code stale-after} (3 s) old. No
   * round throws.
   */
  @Test
  void aFloorOutlivesAFailedStoreOnlyUntilItIsStale() {
    String prefix = prefix();
    publish(0, id(prefix, 0), Duration.ofSeconds(20));
    StoreClients lost = clients().more(1);
    FleetOrder order = new FleetOrder(lost.fleetBoard(0), FLEET, admission(), clock, id(prefix, 1));
    order.tick();
    assertThat(order.floor()).isGreaterThan(Duration.ofSeconds(15));

    lost.close();
    clock.move(Duration.ofSeconds(1));
    order.tick();
    assertThat(order.floor())
        .isGreaterThan(Duration.ofSeconds(14))
        .isLessThan(Duration.ofSeconds(19));
    clock.move(Duration.ofSeconds(2));
    order.tick();
    assertThat(order.floor()).isZero();
  }

  /** An admission with appointments, a limit of 1 and a claim of 100 ms measured. */
  private FairAdmission admission() {
    return admission(Duration.ZERO);
  }

  /** {@link #admission()} with users told to come back held for {@code holdGrace} (0: off). */
  private FairAdmission admission(Duration holdGrace) {
    AdmissionConfig config =
        new AdmissionConfig(
            "fixed", 1, 1, 1, 10, Duration.ZERO, Duration.ofSeconds(2), Duration.ofSeconds(30),
            Duration.ofSeconds(30), Duration.ZERO, 0.5,
            1, Duration.ofSeconds(1), 1.0,
            AdmissionConfig.DEVELOPMENT_SECRET, Duration.ofMinutes(10), holdGrace,
            Duration.ZERO, true, 4, 2, true,
            holdGrace.compareTo(Duration.ofMillis(500)) > 0 ? holdGrace : Duration.ofMillis(500));
    FairAdmission admission =
        new FairAdmission(
            config,
            AdmissionFactory.limiter(config),
            clock,
            (delay, action) -> () -> {},
            () -> 0.5);
    Instant now = clock.instant();
    FairAdmission.Permit permit =
        ((Entry.Admitted) admission.enter(now, now).toCompletableFuture().join()).permit();
    clock.move(Duration.ofMillis(100));
    permit.release(Result.SUCCESS);
    return admission;
  }

  /** Gives {@code users} new users turns in {@code admission}'s book, none of them admitted. */
  private void bookAhead(FairAdmission admission, int users) {
    for (int i = 0; i < users; i++) {
      Instant now = clock.instant();
      CompletableFuture<Entry> entry =
          admission.enter(now, now.plusMillis(50)).toCompletableFuture();
      if (entry.join() instanceof Entry.Admitted admitted) {
        admitted.permit().release(Result.IGNORED);
      }
    }
  }

  private static FairAdmission.Permit admitted(CompletionStage<Entry> entry) {
    assertThat(entry.toCompletableFuture()).isDone();
    Entry done = entry.toCompletableFuture().join();
    assertThat(done).isInstanceOf(Entry.Admitted.class);
    return ((Entry.Admitted) done).permit();
  }

  private static Entry.Refused refused(CompletionStage<Entry> entry) {
    Entry done = entry.toCompletableFuture().join();
    assertThat(done).isInstanceOf(Entry.Refused.class);
    return (Entry.Refused) done;
  }
}
