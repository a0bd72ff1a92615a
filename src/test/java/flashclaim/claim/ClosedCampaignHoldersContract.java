package flashclaim.claim;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.Api;
import flashclaim.testing.ClaimStoreCalls;
import flashclaim.testing.Claimer;
import flashclaim.testing.MultiInstanceTest;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.Tokens;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Holders of a closed campaign ({@link ClosedHolders}) through {@value MultiInstanceTest#INSTANCES}
 * instances sharing one store: while a campaign is paused or has ended, a user who holds the limit
 * gets their own code back (200) through every instance, everyone else gets the 403 of the closure,
 * and nothing changes in the store; once an instance has read the holders, the refused claims read
 * nothing; after a resume, claims are served again. A repeat of a claim with its Idempotency-Key
 * gets the first answer again, whatever the limit, and writes nothing. Written once; each store
 * runs it in a subclass.
 */
public abstract class ClosedCampaignHoldersContract extends MultiInstanceTest {
  private static final String PAUSED = "urn:flashclaim:problem:campaign-paused";
  private static final String NOT_OPEN = "urn:flashclaim:problem:campaign-not-open";
  /** The instances' campaign cache TTL: a pause reaches every instance within it. */
  private static final Duration CACHE_TTL = Duration.ofSeconds(1);

  @Override
  protected Map<String, Object> instanceProperties() {
    return Map.of(
        ClaimStoreCalls.PROPERTY, "true",
        "flashclaim.claim.campaign-cache-ttl", CACHE_TTL.toMillis() + "ms",
        "flashclaim.closed-holders.settle-margin", "100ms");
  }

  @Test
  void aPauseRefusesNewClaimsButHoldersGetTheirCodesUntilTheResume() throws Exception {
    String campaign = newCampaign(1, 20);
    int holders = 6;
    Map<String, String> codeOf = claimEach(campaign, holders, h -> "holder-" + h);
    List<StoreBackend.StoredCoupon> before = backend().coupons(campaign);

    assertThat(patch(campaign, true).status()).isEqualTo(200);
    Thread.sleep(CACHE_TTL.toMillis() + 300); // every instance has seen the pause

    long[] tries = perInstance(i -> calls(i).tryClaims());
    assertClosed(campaign, codeOf, PAUSED);
    for (int i = 0; i < INSTANCES; i++) {
      assertThat(calls(i).tryClaims()).as("attempts to take a coupon on instance %d", i).isEqualTo(tries[i]);
    }
    assertThat(backend().coupons(campaign)).as("the store while paused").containsExactlyInAnyOrderElementsOf(before);

    assertThat(patch(campaign, false).status()).isEqualTo(200);
    Thread.sleep(CACHE_TTL.toMillis() + 300); // every instance has seen the resume
    Map<String, String> after = claimEach(campaign, INSTANCES, n -> "after-resume-" + n);
    assertThat(after).hasSize(INSTANCES);
    assertAnswers(campaign, codeOf, 0, "unused-", PAUSED);
    assertStoreConsistent(campaign, holders + INSTANCES);
    assertAuditOk(campaign, holders + INSTANCES);
  }

  @Test
  void aCampaignThatHasEndedRefusesNewClaimsButHoldersGetTheirCodes() throws Exception {
    String campaign = getClass().getSimpleName().toLowerCase() + "-ends-" + System.nanoTime();
    Instant endsAt = Instant.now().plus(Duration.ofSeconds(10));
    Api.createCampaign(instance(0), campaign, 1, 10, null, endsAt);
    int holders = 4;
    Map<String, String> codeOf = claimEach(campaign, holders, h -> "holder-" + h);
    while (Instant.now().isBefore(endsAt.plusMillis(200))) {
      Thread.sleep(50);
    }
    List<StoreBackend.StoredCoupon> before = backend().coupons(campaign);

    assertClosed(campaign, codeOf, NOT_OPEN);
    assertThat(backend().coupons(campaign)).as("the store after the end").containsExactlyInAnyOrderElementsOf(before);
    assertStoreConsistent(campaign, holders);
  }

  /**
   * With two coupons per user: a user who holds both gets the newest back while paused; a user who
   * holds one is refused like anyone else (a claim asks for one more, and none is handed out), as a
   * proven sold-out refuses them with 410.
   */
  @Test
  void withTwoPerUserOnlyAUserWhoHoldsBothGetsACodeBackWhilePaused() throws Exception {
    String campaign = newCampaign(2, 20);
    Map<String, String> first = claimEach(campaign, 4, h -> "user-" + h);
    Map<String, String> newest = claimEach(campaign, 2, h -> "user-" + h); // user-0, user-1 hold two
    List<StoreBackend.StoredCoupon> before = backend().coupons(campaign);
    assertThat(patch(campaign, true).status()).isEqualTo(200);
    Thread.sleep(CACHE_TTL.toMillis() + 300);

    long[] loads = perInstance(i -> closed(i).loads());
    IntFunction<String> user = n -> "user-" + n % 4;
    for (int round = 0; round < 2; round++) { // before and after the holders are read
      long[] reads = perInstance(i -> calls(i).holdings());
      List<Claimer.Result> results =
          runAll(4 * INSTANCES, n -> () -> Claimer.claimUntilFinal(instance(n), campaign, user.apply(n)));
      for (int n = 0; n < results.size(); n++) {
        Claimer.Result result = results.get(n);
        String who = user.apply(n);
        if (newest.containsKey(who)) {
          assertThat(result.status()).as(who).isEqualTo(200);
          assertThat(result.code()).as(who).isEqualTo(newest.get(who));
        } else {
          assertThat(result.status()).as(who).isEqualTo(403);
          assertThat(result.response().json().get("type")).isEqualTo(PAUSED);
        }
      }
      if (round == 0) {
        awaitLoadsOnEveryInstance(loads);
      } else {
        long holderReads = IntStream.range(0, INSTANCES).mapToLong(i -> calls(i).holdings() - reads[i]).sum();
        long holderClaims = results.stream().filter(r -> r.status() == 200).count();
        long retries = results.stream().mapToLong(Claimer.Result::retries).sum();
        assertThat(holderReads).as("holdings reads: only the claims of users who hold both")
            .isBetween(holderClaims, holderClaims + retries);
      }
    }
    assertThat(first).hasSize(4);
    assertThat(backend().coupons(campaign)).containsExactlyInAnyOrderElementsOf(before);
    assertStoreConsistent(campaign, 6);
    assertAuditOk(campaign, 6);
  }

  /**
   * With two coupons per user, users who claimed one each with an Idempotency-Key repeat that claim
   * while the campaign is paused: each gets the first 201 again, through every instance at once,
   * before and after the holders are read; the same users with a new key, and users who hold
   * nothing, get 403. No idempotency record is written and, once the holders are read, no holdings
   * read.
   */
  @Test
  void withAKeyAUserBelowTheLimitGetsTheFirstAnswerAgainWhilePaused() throws Exception {
    assertKeyedRepeatsWhilePaused(2);
  }

  /**
   * With one coupon per user, a holder's repeat with the first key is the first 201 again
   * (replayed: the idempotency filter runs before the claim, as while open), and a new key gets
   * 200 with the same code, which that key then keeps.
   */
  @Test
  void withAKeyAHolderOfTheLimitGetsTheFirstAnswerAgainWhilePaused() throws Exception {
    assertKeyedRepeatsWhilePaused(1);
  }

  /** As {@link #withAKeyAUserBelowTheLimitGetsTheFirstAnswerAgainWhilePaused}, once the campaign has ended. */
  @Test
  void withAKeyAUserBelowTheLimitGetsTheFirstAnswerAgainOnceEnded() throws Exception {
    String campaign = getClass().getSimpleName().toLowerCase() + "-keyed-ends-" + System.nanoTime();
    Instant endsAt = Instant.now().plus(Duration.ofSeconds(10));
    Api.createCampaign(instance(0), campaign, 2, 10, null, endsAt);
    Map<String, Api.Response> first = claimEachWithKey(campaign, 4);
    while (Instant.now().isBefore(endsAt.plusMillis(200))) {
      Thread.sleep(50);
    }

    assertKeyedRepeats(campaign, first, NOT_OPEN, false);
    assertStoreConsistent(campaign, 4);
  }

  /** Six users claim one coupon each with a key, the campaign is paused, and they repeat. */
  private void assertKeyedRepeatsWhilePaused(int perUserLimit) throws Exception {
    String campaign = newCampaign(perUserLimit, 20);
    Map<String, Api.Response> first = claimEachWithKey(campaign, 6);
    assertThat(patch(campaign, true).status()).isEqualTo(200);
    Thread.sleep(CACHE_TTL.toMillis() + 300);

    assertKeyedRepeats(campaign, first, PAUSED, perUserLimit == 1);
    assertStoreConsistent(campaign, 6);
  }

  /**
   * Two rounds, before and after every instance has read the holders, each at once through every
   * instance: every user of {@code first} repeats their claim with its key (the first answer again,
   * replayed) and with a new key ({@code holdsLimit}: 200 with their code; else 403 {@code type}),
   * beside as many users who hold nothing, with keys (403 {@code type}). The coupons and claims do
   * not change; the idempotency records are those of the first claims and, when the users hold the
   * limit, of each new key's 200. In the second round, refusals read no holdings.
   */
  private void assertKeyedRepeats(
      String campaign, Map<String, Api.Response> first, String type, boolean holdsLimit)
      throws Exception {
    List<StoreBackend.StoredCoupon> coupons = backend().coupons(campaign);
    List<String> users = List.copyOf(first.keySet());
    int each = users.size() * INSTANCES;
    long[] loads = perInstance(i -> closed(i).loads());
    long[] tries = perInstance(i -> calls(i).tryClaims());
    int newKeys = 0;
    for (int round = 0; round < 2; round++) {
      long[] reads = perInstance(i -> calls(i).holdings());
      List<Claimer.Result> results = repeatWithKeys(campaign, first, "round-" + round + "-");
      for (int n = each; n < results.size(); n++) {
        Api.Response response = results.get(n).response();
        String user = results.get(n).user();
        if (n < 2 * each && holdsLimit) {
          assertThat(response.status()).as("%s with a new key", user).isEqualTo(200);
          assertThat(response.json().get("code")).as(user).isEqualTo(first.get(user).json().get("code"));
          assertThat(response.header("Idempotency-Replayed")).as(user).isNull();
        } else {
          assertThat(response.status()).as("%s with a new key", user).isEqualTo(403);
          assertThat(response.json().get("type")).as(user).isEqualTo(type);
        }
      }
      newKeys += holdsLimit ? each : 0;
      if (round == 0) {
        awaitLoadsOnEveryInstance(loads);
        // The copies of the campaign expired meanwhile: a claim through each instance reads it
        // again, so that the next round meets the claim edge's answers, not the store path's.
        for (int i = 0; i < INSTANCES; i++) {
          assertThat(Claimer.claimUntilFinal(instance(i), campaign, "reader-" + i).status()).isEqualTo(403);
        }
      } else {
        long holdingsReads = IntStream.range(0, INSTANCES).mapToLong(i -> calls(i).holdings() - reads[i]).sum();
        long retries = results.stream().mapToLong(Claimer.Result::retries).sum();
        long holderClaims = holdsLimit ? each : 0;
        assertThat(holdingsReads).as("holdings reads: only the new keys of users who hold the limit")
            .isBetween(holderClaims, holderClaims + retries);
      }
    }
    for (int i = 0; i < INSTANCES; i++) {
      assertThat(calls(i).tryClaims()).as("attempts to take a coupon on instance %d", i).isEqualTo(tries[i]);
    }
    assertThat(backend().coupons(campaign)).containsExactlyInAnyOrderElementsOf(coupons);
    assertThat(backend().idempotencyRecords())
        .as("idempotency records: the first claims' and the new keys' 200s")
        .hasSize(users.size() + newKeys)
        .allMatch(StoreBackend.StoredIdempotencyRecord::completed);
  }

  /** Users {@code user-0} to {@code user-(count - 1)} claim at once, each with a key of its own: all 201. */
  private Map<String, Api.Response> claimEachWithKey(String campaign, int count) throws Exception {
    List<Claimer.Result> won =
        runAll(count, n -> () -> Claimer.claimUntilFinal(instance(n), campaign, "user-" + n, "first-user-" + n));
    Map<String, Api.Response> first = new HashMap<>();
    for (Claimer.Result result : won) {
      assertThat(result.status()).as(result.user()).isEqualTo(201);
      first.put(result.user(), result.response());
    }
    return first;
  }

  /**
   * The answers of a closed campaign, each phase at once through every instance: before and while
   * the instances read the holders, every holder gets their own code and {@code 10 *
   * INSTANCES} users who hold nothing 403 {@code type}; once every instance has read them, {@code 30
   * * INSTANCES} more users who hold nothing are refused without any read of holdings, and every
   * holder still gets their code, each claim reading the holder's own claims.
   */
  private void assertClosed(String campaign, Map<String, String> codeOf, String type) throws Exception {
    long[] loads = perInstance(i -> closed(i).loads());
    assertAnswers(campaign, codeOf, 10 * INSTANCES, "waiting-", type);
    awaitLoadsOnEveryInstance(loads);
    long[] reads = perInstance(i -> calls(i).holdings());
    assertAnswers(campaign, Map.of(), 30 * INSTANCES, "late-", type);
    for (int i = 0; i < INSTANCES; i++) {
      assertThat(calls(i).holdings() - reads[i]).as("holdings reads of instance %d", i).isZero();
    }
    assertAnswers(campaign, codeOf, 0, "none-", type);
    long holderReads = IntStream.range(0, INSTANCES).mapToLong(i -> calls(i).holdings() - reads[i]).sum();
    assertThat(holderReads).as("holdings reads of the holders' claims").isGreaterThanOrEqualTo(codeOf.size() * INSTANCES);
  }

  /**
   * Every holder through every instance, and {@code others} users who hold nothing (named {@code
   * prefix} and a number), at once: each holder gets their own code (200), each other user 403
   * {@code type}.
   */
  private void assertAnswers(String campaign, Map<String, String> codeOf, int others, String prefix, String type)
      throws Exception {
    List<String> holders = List.copyOf(codeOf.keySet());
    int repeats = holders.size() * INSTANCES;
    List<Claimer.Result> results =
        runAll(
            repeats + others,
            n -> () -> Claimer.claimUntilFinal(instance(n), campaign,
                n < repeats ? holders.get(n / INSTANCES) : prefix + n));
    for (int n = 0; n < results.size(); n++) {
      Claimer.Result result = results.get(n);
      if (n < repeats) {
        String holder = holders.get(n / INSTANCES);
        assertThat(result.status()).as("%s through instance %d", holder, n % INSTANCES).isEqualTo(200);
        assertThat(result.code()).as(holder).isEqualTo(codeOf.get(holder));
      } else {
        assertThat(result.status()).as(result.user()).isEqualTo(403);
        assertThat(result.response().json().get("type")).as(result.user()).isEqualTo(type);
      }
    }
  }

  /**
   * Users {@code 0} to {@code count - 1} claim at once, through the instances in turn: each takes
   * a coupon.
   */
  private Map<String, String> claimEach(String campaign, int count, IntFunction<String> user)
      throws Exception {
    List<Claimer.Result> won =
        runAll(count, n -> () -> Claimer.claimUntilFinal(instance(n), campaign, user.apply(n)));
    Map<String, String> codeOf = new HashMap<>();
    for (Claimer.Result result : won) {
      assertThat(result).matches(Claimer.Result::tookACoupon);
      codeOf.put(result.user(), result.code());
    }
    return codeOf;
  }

  private void awaitLoadsOnEveryInstance(long[] before) throws InterruptedException {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
    while (!IntStream.range(0, INSTANCES).allMatch(i -> closed(i).loads() > before[i])) {
      assertThat(Instant.now()).as("waiting for the holders on every instance").isBefore(deadline);
      Thread.sleep(20);
    }
  }

  private Api.Response patch(String campaign, boolean paused) {
    return Api.send(
        Api.request(instance(0), "/v1/admin/campaigns/" + campaign, Tokens.admin())
            .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"paused\":" + paused + "}"))
            .header("Content-Type", "application/merge-patch+json")
            .build());
  }

  private ClosedHolders closed(int i) {
    return instances.get(i).context().getBean(ClosedHolders.class);
  }

  private ClaimStoreCalls calls(int i) {
    return instances.get(i).context().getBean(ClaimStoreCalls.class);
  }

  private long[] perInstance(java.util.function.IntToLongFunction value) {
    return IntStream.range(0, INSTANCES).mapToLong(value).toArray();
  }
}
