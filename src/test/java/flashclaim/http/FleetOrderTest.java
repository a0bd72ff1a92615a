package flashclaim.http;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.admission.FairAdmission;
import flashclaim.admission.FleetBoard;
import flashclaim.admission.FleetOrder;
import flashclaim.testing.Api;
import flashclaim.testing.Claimer;
import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreContents;
import flashclaim.testing.Tokens;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * One order across the fleet, as a client sees it: another instance of the fleet (its entry
 * written to the store's fleet board as that instance writes it) told its new users turns 20 s
 * ahead; within a round of its fleet order, this instance answers a new user's claim 503 {@code
 * overloaded} with a Retry-After of about that wait, though it has every slot free. Once the
 * other instance withdraws its entry, the next new user gets a coupon. The instance does not post
 * the turn the floor made it tell: its entry holds its own book only.
 * With {@code fleet.enabled=false} the instance has no fleet order.
 */
class FleetOrderTest {
  private static final String OVERLOADED = "urn:flashclaim:problem:overloaded";

  @Test
  void aNewUserIsToldToComeBackAfterTheTurnsAnotherInstanceTold() throws Exception {
    new FirestoreBackend().reset();
    String self;
    try (ServiceInstance one = ServiceInstance.start(Map.of("flashclaim.claim.deadline", "2s"))) {
      URI url = one.url();
      FairAdmission admission = one.context().getBean(FairAdmission.class);
      FleetBoard board = one.context().getBean(FleetBoard.class);
      Api.createCampaign(url, "fleet-order", 1, 10);

      board.publish("another-instance", Duration.ofSeconds(20), null);
      await(admission, floor -> floor.compareTo(Duration.ofSeconds(15)) > 0);
      Api.Response refused = Claimer.claim(url, "fleet-order", Tokens.user("later-click"), null);
      assertThat(refused.status()).as(refused.body()).isEqualTo(503);
      assertThat(refused.json().get("type")).isEqualTo(OVERLOADED);
      assertThat(Long.parseLong(refused.header("Retry-After"))).isBetween(15L, 20L);
      assertThat(refused.header(Claimer.TICKET)).isNotBlank();

      board.withdraw("another-instance");
      await(admission, Duration::isZero);
      // a first claim of a fresh instance on a loaded machine may be busy at its deadline: retried
      Api.Response served =
          Api.retrying503(() -> Claimer.claim(url, "fleet-order", Tokens.user("after-it"), null));
      assertThat(served.status()).as(served.body()).isIn(200, 201);

      // The turn it told came from the floor, not from its own book: it posts nothing for it,
      // over several rounds, so that the other instance does not book after it in turn.
      self = one.context().getBean(FleetOrder.class).instanceId();
      Thread.sleep(1_000);
      assertThat(entriesOf(self)).as("an entry echoing the floor").isZero();
    }
    assertThat(entriesOf(self)).as("none after shutdown").isZero();
    try (ServiceInstance alone =
        ServiceInstance.start(Map.of("flashclaim.admission.fleet.enabled", "false"))) {
      assertThat(alone.context().findBean(FleetOrder.class)).isEmpty();
      assertThat(alone.context().getBean(FairAdmission.class).fleetFloor()).isZero();
    }
  }

  /**
   * Another instance of the fleet (its entry written to the store as that instance writes it, a
   * round every 200 ms) holds back a click of a second ago: this instance, every slot free, leaves
   * a new user's claim waiting in its line rather than serve it first. Once the other instance's
   * entry is gone, the waiting claim gets its coupon, within its wait. With {@code
   * fleet.hold-for-others=false} the same entry holds no claim back.
   */
  @Test
  void aLaterClickWaitsWhileAnotherInstanceHoldsAnEarlierOne() throws Exception {
    new FirestoreBackend().reset();
    // max-holding beyond the test's seconds: the other instance's entry, not the bound, ends it
    try (ServiceInstance one =
        ServiceInstance.start(
            Map.of(
                "flashclaim.claim.deadline", "6s", "flashclaim.admission.max-holding", "10s"))) {
      URI url = one.url();
      FairAdmission admission = one.context().getBean(FairAdmission.class);
      FleetBoard board = one.context().getBean(FleetBoard.class);
      FleetOrder order = one.context().getBean(FleetOrder.class);
      Api.createCampaign(url, "fleet-front", 1, 10);
      Instant earlier = Instant.now().minusSeconds(1).truncatedTo(ChronoUnit.MILLIS);
      ScheduledExecutorService other = Executors.newSingleThreadScheduledExecutor();
      other.scheduleAtFixedRate(
          () -> board.publish("holding-instance", Duration.ZERO, earlier),
          0,
          200,
          TimeUnit.MILLISECONDS);
      CompletableFuture<Api.Response> waiting;
      try {
        awaitFront(order);
        assertThat(order.front().servingUpTo()).isAfter(earlier).isBefore(earlier.plusSeconds(1));
        waiting =
            CompletableFuture.supplyAsync(
                () -> Claimer.claim(url, "fleet-front", Tokens.user("later-click"), null));
        Thread.sleep(1_000);
        assertThat(waiting).as("a free slot left to the earlier click elsewhere").isNotDone();
        assertThat(admission.queued()).isEqualTo(1);
        assertThat(admission.inFlight()).isZero();
        assertThat(admission.fleetSlotsHeld()).isPositive();
      } finally {
        other.shutdownNow();
        assertThat(other.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
      }
      board.withdraw("holding-instance");
      Api.Response served = waiting.get(6, TimeUnit.SECONDS);
      assertThat(served.status()).as(served.body()).isEqualTo(201);
    }
    try (ServiceInstance own =
        ServiceInstance.start(
            Map.of(
                "flashclaim.claim.deadline", "6s",
                "flashclaim.admission.fleet.hold-for-others", "false"))) {
      FleetBoard board = own.context().getBean(FleetBoard.class);
      FleetOrder order = own.context().getBean(FleetOrder.class);
      Api.createCampaign(own.url(), "fleet-own", 1, 10);
      board.publish("holding-instance", Duration.ZERO, Instant.now().minusSeconds(1));
      awaitFront(order);
      Api.Response served = Claimer.claim(own.url(), "fleet-own", Tokens.user("own-line"), null);
      assertThat(served.status()).as("hold-for-others=false: " + served.body()).isEqualTo(201);
      assertThat(own.context().getBean(FairAdmission.class).fleetSlotsHeld()).isZero();
      board.withdraw("holding-instance");
    }
  }

  /** Waits (at most 10 s) until the instance's fleet order has read another instance's front. */
  private static void awaitFront(FleetOrder order) throws InterruptedException {
    Instant giveUp = Instant.now().plusSeconds(10);
    while (order.front() == null) {
      assertThat(Instant.now()).as("the other instance's entry read").isBefore(giveUp);
      Thread.sleep(20);
    }
  }

  /** The documents of the fleet board that belong to the instance {@code instanceId}. */
  private static long entriesOf(String instanceId) {
    return StoreContents.all("admission-fleet").stream()
        .filter(doc -> instanceId.equals(doc.getString("instance")))
        .count();
  }

  /** Waits (at most 10 s: several rounds of 1 s) until the instance's fleet floor is as told. */
  private static void await(FairAdmission admission, Predicate<Duration> floor)
      throws InterruptedException {
    Instant giveUp = Instant.now().plusSeconds(10);
    while (!floor.test(admission.fleetFloor())) {
      assertThat(Instant.now())
          .as("the fleet floor, now %s", admission.fleetFloor())
          .isBefore(giveUp);
      Thread.sleep(50);
    }
  }
}
