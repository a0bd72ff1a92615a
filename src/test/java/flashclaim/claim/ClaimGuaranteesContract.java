package flashclaim.claim;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.Api;
import flashclaim.testing.Claimer;
import flashclaim.testing.MultiInstanceTest;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.Tokens;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * G1-G5, each a concurrent run through {@value MultiInstanceTest#INSTANCES} service instances
 * (separate application contexts) that share one store, with exact counts checked in the store
 * itself. Written once; each store backend runs it through a subclass.
 */
public abstract class ClaimGuaranteesContract extends MultiInstanceTest {

  /** G1, G3, G5 on a small W1: 600 users, 300 coupons, all at once through 3 instances. */
  @Test
  void flashSaleAssignsEachCouponOnceAndSellsOutOnlyWhenEmpty() throws Exception {
    int users = 600;
    int coupons = 300;
    String campaign = newCampaign(1, coupons);

    List<Claimer.Result> results =
        runAll(
            users,
            i -> () -> Claimer.claimUntilFinal(instance(i), campaign, "w1-user-" + i));

    // A user's coupon is a 201, or a 200 after a 503: a claim whose store write landed after its
    // deadline on a loaded machine is answered 503, and the retry finds the coupon it holds.
    assertThat(results)
        .filteredOn(r -> r.status() == 200)
        .allSatisfy(r -> assertThat(r.retries()).as(r.user() + "'s 200 came after a retry").isPositive());
    Map<Integer, Long> byStatus =
        results.stream().collect(Collectors.groupingBy(Claimer.Result::status, Collectors.counting()));
    assertThat(byStatus.keySet()).isSubsetOf(200, 201, 410);
    assertThat(byStatus.getOrDefault(200, 0L) + byStatus.getOrDefault(201, 0L)).isEqualTo(coupons);
    assertThat(byStatus.getOrDefault(410, 0L)).isEqualTo(users - coupons);
    List<String> codes =
        results.stream().filter(r -> r.status() != 410).map(Claimer.Result::code).toList();
    assertThat(new HashSet<>(codes)).hasSize(coupons); // G1 as the users saw it

    assertStoreConsistent(campaign, coupons);
    // G3: every "sold out" came after the last coupon had been assigned, never while one was left.
    Instant lastAssigned =
        backend().coupons(campaign).stream()
            .map(StoreBackend.StoredCoupon::assignedAt).max(Instant::compareTo).orElseThrow();
    assertThat(results.stream().filter(r -> r.status() == 410).map(Claimer.Result::answeredAt))
        .allSatisfy(answered -> assertThat(answered).isAfterOrEqualTo(lastAssigned));
    assertAuditOk(campaign, coupons);
  }

  /**
   * G2, G4 on a small W2: 100 users click 5 times at once, each click on another instance. The
   * claim route is not guarded: the clicks race in the store, where the per-slot claim record lets
   * one of them win; each user ends with exactly one 201, the other clicks answer 200 with the same
   * code, and no click meets a 409.
   */
  @Test
  void doubleClicksYieldExactlyOneCouponPerUser() throws Exception {
    int users = 100;
    int clicks = 5;
    String campaign = newCampaign(1, 1_000);

    List<Claimer.Result> results =
        runAll(
            users * clicks,
            i -> () -> Claimer.claimUntilFinal(instance(i), campaign, "w2-user-" + (i / clicks)));

    Map<String, List<Claimer.Result>> byUser =
        results.stream().collect(Collectors.groupingBy(Claimer.Result::user));
    assertThat(byUser).hasSize(users);
    byUser.forEach(
        (user, answers) -> {
          assertThat(answers).extracting(Claimer.Result::status).containsOnly(201, 200);
          assertThat(answers.stream().filter(a -> a.status() == 201)).as(user).hasSize(1);
          assertThat(answers.stream().map(Claimer.Result::code).distinct()).as(user).hasSize(1);
        });
    assertThat(results.stream().mapToInt(Claimer.Result::conflicts).sum())
        .as("409s of a modification guard, which the claim route does not have")
        .isZero();
    assertStoreConsistent(campaign, users);
    assertAuditOk(campaign, users);
  }

  /** G2 with a limit above one: ten clicks of one user get exactly three different coupons. */
  @Test
  void perUserLimitHoldsUnderConcurrentClaims() throws Exception {
    String campaign = newCampaign(3, 50);

    List<Claimer.Result> results =
        runAll(10, i -> () -> Claimer.claimUntilFinal(instance(i), campaign, "collector"));

    assertThat(results.stream().filter(r -> r.status() == 201)).hasSize(3);
    assertThat(results).extracting(Claimer.Result::status).containsOnly(201, 200);
    assertThat(results.stream().map(Claimer.Result::code).collect(Collectors.toSet())).hasSize(3);
    Api.Response mine =
        Api.get(instance(0), "/v1/campaigns/" + campaign + "/claims/me", Tokens.user("collector"));
    assertThat(mine.status()).isEqualTo(200);
    assertThat((List<?>) mine.json().get("coupons")).hasSize(3);
    assertStoreConsistent(campaign, 3);
    assertAuditOk(campaign, 3);
  }

  /** G4: a repeated claim returns the held coupon, on any instance, with 200. */
  @Test
  void repeatedClaimReturnsTheHeldCoupon() {
    String campaign = newCampaign(1, 10);
    Claimer.Result first = Claimer.claimUntilFinal(instance(0), campaign, "repeater");
    assertThat(first.status()).isEqualTo(201);
    for (int i = 1; i <= 3; i++) {
      Claimer.Result again = Claimer.claimUntilFinal(instance(i), campaign, "repeater");
      assertThat(again.status()).isEqualTo(200);
      assertThat(again.code()).isEqualTo(first.code());
    }
    assertStoreConsistent(campaign, 1);
  }

  /**
   * G5: an instance that dies in the middle of a flash sale (its store connection cut, its server
   * stopped while claims are in flight) leaves the store consistent, and the survivors finish the
   * sale exactly.
   */
  @Test
  void instanceDyingMidSaleLeavesStoreConsistent() throws Exception {
    int users = 300;
    int coupons = 200;
    String campaign = newCampaign(1, coupons);
    ServiceInstance doomed = startInstance();
    URI doomedUrl = doomed.url();

    // Killed once a quarter of the pool is sold, so that claims are surely in flight.
    CountDownLatch quarterSold = new CountDownLatch(coupons / 4);
    List<Future<Object>> onDoomed = new ArrayList<>();
    for (int i = 0; i < users; i++) {
      String user = "g5-user-" + i;
      onDoomed.add(
          clients.submit(
              () -> {
                try {
                  Claimer.Result result = Claimer.claimUntilFinal(doomedUrl, campaign, user);
                  if (result.status() == 201) {
                    quarterSold.countDown();
                  }
                  return result;
                } catch (RuntimeException connectionLost) {
                  return connectionLost;
                }
              }));
    }
    assertThat(quarterSold.await(120, TimeUnit.SECONDS)).isTrue();
    backend().killAbruptly(doomed);
    for (Future<Object> f : onDoomed) {
      f.get(120, TimeUnit.SECONDS);
    }
    assertStoreConsistent(campaign, -1);

    // The survivors serve everyone again: exact totals, nobody holds two.
    List<Claimer.Result> retried =
        runAll(users, i -> () -> Claimer.claimUntilFinal(instance(i), campaign, "g5-user-" + i));
    assertThat(retried).extracting(Claimer.Result::status)
        .allSatisfy(status -> assertThat(status).isIn(200, 201, 410));
    assertThat(retried.stream().filter(r -> r.status() != 410)).hasSize(coupons);
    assertStoreConsistent(campaign, coupons);
    assertAuditOk(campaign, coupons);
  }

}
