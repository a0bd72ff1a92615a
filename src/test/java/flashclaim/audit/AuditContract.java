package flashclaim.audit;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.claim.SoldOutProofs;
import flashclaim.testing.Api;
import flashclaim.testing.Claimer;
import flashclaim.testing.MultiInstanceTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The audit reads a campaign as a stream of pages from one consistent view, through {@value
 * MultiInstanceTest#INSTANCES} instances on one store: while users claim through every instance,
 * each audit sees every claim whole or not at all (G1, G2 and G5 hold in each, assigned coupons
 * equal claim records), and its page count shows that it read in pages of the configured size
 * rather than all at once. Subclassed per store.
 */
public abstract class AuditContract extends MultiInstanceTest {
  static final int PAGE = 500;
  static final int COUPONS = 4_000;
  static final int USERS = 1_500;

  @Override
  protected Map<String, Object> instanceProperties() {
    return Map.of("flashclaim.audit.page-size", PAGE, "flashclaim.audit.fetch-size", PAGE);
  }

  @Test
  void everyAuditDuringClaimsSeesAConsistentViewReadInPages() throws Exception {
    String campaign = newCampaign(1, COUPONS);
    AtomicInteger claimed = new AtomicInteger();
    // The later half of the users claims only once the first audit has answered, so that at least
    // one audit reads while claims are under way, however slowly this machine runs them.
    CountDownLatch firstAudit = new CountDownLatch(1);
    CompletableFuture<List<Claimer.Result>> claims =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return runAll(
                    USERS,
                    i ->
                        () -> {
                          if (i >= USERS / 2 && !firstAudit.await(120, TimeUnit.SECONDS)) {
                            throw new IllegalStateException("no audit answered within 120 s");
                          }
                          Claimer.Result result = Claimer.claimUntilFinal(instance(i), campaign, "u" + i);
                          claimed.incrementAndGet();
                          return result;
                        });
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    while (claimed.get() < USERS / 10 && !claims.isDone()) {
      Thread.sleep(10); // the first audit starts with claims under way
    }
    List<Long> seen = new ArrayList<>();
    int round = 0;
    while (!claims.isDone()) {
      Map<String, Object> report = audit(round++, campaign);
      firstAudit.countDown();
      assertThat(report.get("ok")).as(report.toString()).isEqualTo(true);
      assertThat(number(report, "coupons")).isEqualTo(COUPONS);
      assertThat(number(report, "claims")).as(report.toString()).isEqualTo(number(report, "assigned"));
      seen.add(number(report, "assigned"));
    }
    // Every user gets a coupon: 201, or 200 after a 503 whose commit landed past the claim's
    // deadline while audits slowed the store (the retry finds the coupon, design section 4.1).
    assertThat(claims.get(300, TimeUnit.SECONDS))
        .allSatisfy(
            r ->
                assertThat(r.status() == 201 || (r.status() == 200 && r.retries() > r.conflicts()))
                    .as(r.toString())
                    .isTrue());
    assertThat(seen).as("audits taken while claims ran").anyMatch(n -> n > 0 && n < USERS);

    Map<String, Object> last = audit(0, campaign);
    assertThat(last).containsEntry("ok", true).containsEntry("problemCount", 0);
    assertThat(number(last, "coupons")).isEqualTo(COUPONS);
    assertThat(number(last, "assigned")).isEqualTo(USERS);
    assertThat(number(last, "claims")).isEqualTo(USERS);
    // Each sequence reads full pages and then one short (or empty) page.
    long fullPages = COUPONS / PAGE + USERS / PAGE;
    assertThat(number(last, "pages")).isBetween(fullPages, fullPages + 2);
    assertStoreConsistent(campaign, USERS);
  }

  /**
   * Writes, past the service, a second claim record naming {@code heldCode}'s coupon with slot 5
   * (G1, and G2 with a per-user limit of 1), and marks {@code freeCode}'s coupon assigned to a
   * holder without a claim record (G5).
   */
  protected abstract void corrupt(String campaign, String heldCode, String freeCode) throws Exception;

  @Test
  void theAuditNamesEachBrokenGuarantee() throws Exception {
    String campaign = newCampaign(1, 12);
    List<Claimer.Result> claims =
        runAll(6, i -> () -> Claimer.claimUntilFinal(instance(i), campaign, "holder" + i));
    // 200: an attempt answered 503 had landed (on a loaded machine the store answered after its
    // deadline), and the retry found the user's coupon; either way each user holds one
    assertThat(claims).allSatisfy(r -> assertThat(r.status()).as(r.toString()).isIn(200, 201));
    assertThat(audit(0, campaign)).containsEntry("ok", true).containsEntry("problemCount", 0);
    String held = claims.get(0).code();
    String free =
        backend().coupons(campaign).stream()
            .filter(c -> !c.assigned())
            .findFirst()
            .orElseThrow()
            .code();

    corrupt(campaign, held, free);

    for (int i = 0; i < INSTANCES; i++) {
      Map<String, Object> report = audit(i, campaign);
      assertThat(report)
          .as(report.toString())
          .containsEntry("ok", false)
          .containsEntry("assigned", 7)
          .containsEntry("claims", 7)
          .containsEntry("problemCount", 4);
      @SuppressWarnings("unchecked")
      List<String> problems = (List<String>) report.get("problems");
      assertThat(problems)
          .as(report.toString())
          .hasSize(4)
          .anySatisfy(p -> assertThat(p).startsWith("G1: coupon ").contains("named by 2 claim records"))
          .anySatisfy(p -> assertThat(p).startsWith("G2: claim ").endsWith(" uses slot 5"))
          .anySatisfy(p -> assertThat(p).startsWith("G5: claim ").contains(", held by "))
          .anySatisfy(p -> assertThat(p).startsWith("G5: assigned coupon ").contains("no matching claim record"));
    }
  }

  /**
   * Hides {@code freeCode}'s unassigned coupon, past the service, from where the store's claims
   * look for unassigned coupons, leaving the coupon itself unassigned.
   */
  protected abstract void hideFromClaims(String campaign, String freeCode) throws Exception;

  /**
   * Offers {@code freeCode}'s hidden coupon to claims again as docs/operations.md tells an
   * operator to ("The audit"), moving the campaign's additions counter with it.
   */
  protected abstract void offerAgain(String campaign, String freeCode) throws Exception;

  @Test
  void theAuditNamesAnUnassignedCouponNoClaimCanFind() throws Exception {
    String campaign = newCampaign(1, 3);
    String free = backend().coupons(campaign).get(0).code();
    assertThat(audit(0, campaign)).containsEntry("ok", true).containsEntry("problemCount", 0);

    hideFromClaims(campaign, free);

    List<Claimer.Result> claims =
        runAll(3, i -> () -> Claimer.claimUntilFinal(instance(i), campaign, "seeker" + i));
    assertThat(claims).extracting(Claimer.Result::status).containsExactlyInAnyOrder(201, 201, 410);
    for (int i = 0; i < INSTANCES; i++) {
      Map<String, Object> report = audit(i, campaign);
      assertThat(report)
          .as(report.toString())
          .containsEntry("ok", false)
          .containsEntry("assigned", 2)
          .containsEntry("problemCount", 1)
          .containsEntry(
              "problems",
              List.of("G3: unassigned coupon " + couponId(free) + " is not offered to claims"));
    }

    // Every instance proves the pool empty (two 410s make the proof, the third is answered on it),
    // so that the repair must move the additions counter to be seen.
    for (int i = 0; i < INSTANCES; i++) {
      for (int j = 0; j < 3; j++) {
        assertThat(Claimer.claimUntilFinal(instance(i), campaign, "prover-" + i + "-" + j).status())
            .isEqualTo(410);
      }
      assertThat(instances.get(i).context().getBean(SoldOutProofs.class).provenSoldOuts())
          .as("sold-out answers on a proof, instance %d", i)
          .isPositive();
    }

    // The documented repair: the user told "sold out" now gets the coupon from an instance that
    // has proven the pool empty, and the audit is clean everywhere.
    offerAgain(campaign, free);
    int loser = 0;
    while (claims.get(loser).status() != 410) {
      loser++;
    }
    Claimer.Result retry = Claimer.claimUntilFinal(instance(loser), campaign, "seeker" + loser);
    assertThat(retry.status()).as(retry.toString()).isIn(200, 201); // 200: a 503 that had landed
    assertThat(retry.code()).isEqualTo(free);
    for (int i = 0; i < INSTANCES; i++) {
      assertThat(audit(i, campaign))
          .containsEntry("ok", true)
          .containsEntry("assigned", 3)
          .containsEntry("problemCount", 0);
    }
  }

  /** The id of the coupon of {@code code}, as the audit names it. */
  protected abstract String couponId(String code);

  protected Map<String, Object> audit(int instance, String campaign) {
    // An audit during a sale may find every pooled connection busy with claims and answer 503
    // (store-unavailable, retry later); the operator's client retries, as this one does.
    Api.Response audit =
        Api.getRetrying503(instance(instance), "/v1/admin/campaigns/" + campaign + "/audit");
    assertThat(audit.status()).as(audit.body()).isEqualTo(200);
    return audit.json();
  }

  private static long number(Map<String, Object> report, String field) {
    return ((Number) report.get(field)).longValue();
  }
}
