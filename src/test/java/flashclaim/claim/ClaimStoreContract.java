package flashclaim.claim;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.Deadline;
import flashclaim.audit.AuditReport;
import flashclaim.audit.AuditService;
import flashclaim.audit.AuditStore;
import flashclaim.campaign.Campaign;
import flashclaim.testing.Concurrently;
import flashclaim.testing.StoreClients;
import flashclaim.testing.StoreContract;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * The contract of a {@link ClaimStore}, run against the real store by a subclass per store, with
 * {@value #CLIENTS} store clients of their own (each with the claim store's own state, as an
 * instance has) and no service: claims racing through every client hand out every coupon exactly
 * once (G1, G3), a slot holds exactly one claim however many claims of the user race for it (G2),
 * slots of a user hold different coupons in slot order, every assignment has exactly its claim
 * record and no record lacks its assignment (G5, read back from the store), also after a client was
 * cut off in the middle of its claims, and the holders are listed once per claim record.
 */
public abstract class ClaimStoreContract extends StoreContract {
  private static final Clock CLOCK = Clock.systemUTC();

  /** The port over store client {@code client}, one object per client. */
  protected final ClaimStore store(int client) {
    return clients().claimStore(client);
  }

  /**
   * G1, G3: 80 users, 40 coupons, all claiming at once through every client: exactly 40 win, each a
   * different coupon, and exactly 40 are told none is left, after every coupon was handed out.
   */
  @Test
  void claimsRacingThroughEveryClientHandOutEveryCouponExactlyOnce() throws Exception {
    Campaign campaign = newCampaign(1, 40);
    List<ClaimStore.Attempt> answers =
        Concurrently.run(80, i -> () -> claim(i, campaign, "user-" + i, 0));

    List<Claim> won = won(answers);
    assertThat(won).hasSize(40);
    assertThat(won.stream().map(Claim::code).distinct()).hasSize(40);
    assertThat(answers).filteredOn(ClaimStore.Attempt.NoneLeft.class::isInstance).hasSize(40);
    assertThat(clients().couponStore(1).stock(campaign.id()).assigned()).isEqualTo(40);
    assertThat(clients().couponStore(2).stock(campaign.id()).remaining()).isZero();
    Map<String, String> holders = assertStoreConsistent(campaign, 40);
    for (int i = 0; i < answers.size(); i++) {
      if (answers.get(i) instanceof ClaimStore.Attempt.Won w) {
        assertThat(holders).containsEntry(w.claim().code().value(), new UserId("user-" + i).key());
      }
    }
  }

  /**
   * G2: 20 users each send 6 claims of slot 0 at once, through every client: per user exactly one
   * wins and the others find the slot taken; 20 coupons are assigned.
   */
  @Test
  void aSlotHoldsExactlyOneClaimHoweverManyRace() throws Exception {
    Campaign campaign = newCampaign(1, 60);
    int clicks = 6;
    List<ClaimStore.Attempt> answers =
        Concurrently.run(20 * clicks, i -> () -> claim(i, campaign, "clicker-" + i / clicks, 0));

    for (int user = 0; user < 20; user++) {
      List<ClaimStore.Attempt> mine = answers.subList(user * clicks, (user + 1) * clicks);
      assertThat(won(mine)).as("user %d", user).hasSize(1);
      Claim claim = won(mine).get(0);
      assertThat(mine)
          .filteredOn(ClaimStore.Attempt.SlotTaken.class::isInstance)
          .hasSize(clicks - 1);
      for (ClaimStore.Attempt attempt : mine) {
        if (attempt instanceof ClaimStore.Attempt.SlotTaken taken && taken.held() != null) {
          assertThat(taken.held()).containsExactly(claim);
        }
      }
      assertThat(store(user).holdings(campaign, new UserId("clicker-" + user), deadline()))
          .containsExactly(claim);
    }
    assertStoreConsistent(campaign, 20);
  }

  /**
   * A limit above one: 10 users claim slots 0 to 2 at once, twice each, through every client: every
   * user ends with exactly three different coupons, one per slot, listed in slot order.
   */
  @Test
  void eachSlotOfAUserHoldsItsOwnCoupon() throws Exception {
    Campaign campaign = newCampaign(3, 60);
    List<ClaimStore.Attempt> answers =
        Concurrently.run(60, i -> () -> claim(i, campaign, "collector-" + i % 10, i / 10 % 3));

    assertThat(won(answers)).hasSize(30);
    for (int user = 0; user < 10; user++) {
      List<Claim> held =
          store(user + 1).holdings(campaign, new UserId("collector-" + user), deadline());
      assertThat(held).extracting(Claim::slot).containsExactly(0, 1, 2);
      assertThat(held.stream().map(Claim::code).distinct()).hasSize(3);
    }
    assertStoreConsistent(campaign, 30);
  }

  /**
   * G5: a client cut off in the middle of a sale (its connections closed once 5 of 40 claims on it
   * have ended) leaves the store consistent, whichever of its writes landed; then 120 users, the
   * cut-off client's among them, claim through the other clients until none is left: exactly the 60
   * coupons are assigned, to 60 different users, each with its claim record.
   */
  @Test
  void aClientCutOffMidSaleLeavesTheStoreConsistentAndTheOthersFinishIt() throws Exception {
    Campaign campaign = newCampaign(1, 60);
    StoreClients doomed = clients().more(1);
    ClaimStore dying = doomed.claimStore(0);
    CountDownLatch someDone = new CountDownLatch(5);
    Thread cutter =
        new Thread(
            () -> {
              Concurrently.await(someDone);
              doomed.close();
            });
    cutter.start();
    Concurrently.run(
        40,
        i ->
            () -> {
              try {
                return dying.tryClaim(
                    campaign,
                    new UserId("user-" + i),
                    0,
                    Deadline.after(Instant.now(), Duration.ofSeconds(2), CLOCK));
              } catch (RuntimeException failed) {
                return failed;
              } finally {
                someDone.countDown();
              }
            });
    cutter.join(60_000);
    assertStoreConsistent(campaign, -1);

    List<ClaimStore.Attempt> answers =
        Concurrently.run(120, i -> () -> claim(1 + i % 2, campaign, "user-" + i, 0));
    Map<String, String> holders = assertStoreConsistent(campaign, 60);
    assertThat(new HashSet<>(holders.values())).hasSize(60);
    for (int i = 0; i < answers.size(); i++) {
      if (answers.get(i) instanceof ClaimStore.Attempt.Won w) {
        assertThat(holders).containsEntry(w.claim().code().value(), new UserId("user-" + i).key());
      }
    }
  }

  /** The holders come once per claim record; past {@code max} the listing says it is partial. */
  @Test
  void holdersAreListedOncePerClaimRecord() {
    Campaign campaign = newCampaign(2, 5);
    for (String user : List.of("ann", "bob")) {
      assertThat(claim(0, campaign, user, 0)).isInstanceOf(ClaimStore.Attempt.Won.class);
    }
    assertThat(claim(1, campaign, "ann", 1)).isInstanceOf(ClaimStore.Attempt.Won.class);

    List<String> seen = Collections.synchronizedList(new ArrayList<>());
    assertThat(store(2).forEachHolder(campaign, 2, 10, seen::add)).isTrue();
    assertThat(seen)
        .containsExactlyInAnyOrder(
            new UserId("ann").key(), new UserId("ann").key(), new UserId("bob").key());
    assertThat(store(2).forEachHolder(campaign, 1, 2, key -> {})).isFalse();
  }

  /**
   * G1, G2, G5 read back from the store in one consistent view: {@code assigned} coupons (any
   * number if negative) are assigned, each named by exactly one claim record of its holder in a
   * slot below the limit, and no claim record names an unassigned or missing coupon; the service's
   * audit agrees.
   *
   * @return the holder's user key by code
   */
  protected final Map<String, String> assertStoreConsistent(Campaign campaign, int assigned) {
    AuditStore audit = clients().auditStore(0, 1000);
    Map<String, String> holders = new HashMap<>();
    audit.read(
        campaign.id(),
        view -> {
          Map<String, AuditStore.CouponRow> coupons = new HashMap<>();
          view.coupons().forEachRemaining(c -> coupons.put(c.couponId(), c));
          Set<String> named = new HashSet<>();
          int claims = 0;
          for (var it = view.claimsByCoupon(); it.hasNext(); ) {
            AuditStore.ClaimRow claim = it.next();
            claims++;
            assertThat(named.add(claim.couponId())).as("named twice: " + claim).isTrue();
            AuditStore.CouponRow coupon = coupons.get(claim.couponId());
            assertThat(coupon).as("names a missing coupon: " + claim).isNotNull();
            assertThat(coupon.assigned()).as(claim.toString()).isTrue();
            assertThat(coupon.assignedTo()).isEqualTo(claim.userKey());
            assertThat(coupon.claimId()).isEqualTo(claim.claimId());
            assertThat(coupon.code()).isEqualTo(claim.code());
            assertThat(claim.slot()).isBetween(0, campaign.perUserLimit() - 1);
            holders.put(claim.code(), claim.userKey());
          }
          assertThat(coupons.values().stream().filter(AuditStore.CouponRow::assigned))
              .hasSize(claims);
          if (assigned >= 0) {
            assertThat(claims).isEqualTo(assigned);
          }
          return null;
        });
    AuditReport report =
        new AuditService(clients().campaignStore(1), audit).audit(campaign.id()).orElseThrow();
    assertThat(report.ok()).as(report.problems().toString()).isTrue();
    if (assigned >= 0) {
      assertThat(report.assigned()).isEqualTo(assigned);
    }
    return holders;
  }

  private static List<Claim> won(List<ClaimStore.Attempt> answers) {
    return answers.stream()
        .filter(ClaimStore.Attempt.Won.class::isInstance)
        .map(a -> ((ClaimStore.Attempt.Won) a).claim())
        .toList();
  }
}
