package flashclaim.claim;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.Api;
import flashclaim.testing.ClaimStoreCalls;
import flashclaim.testing.Claimer;
import flashclaim.testing.MultiInstanceTest;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.Tokens;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The sold-out fast path ({@link SoldOutProofs}) through {@value MultiInstanceTest#INSTANCES}
 * instances sharing one store: a pool proven empty answers 410 without a pool query, a seeding
 * through any instance makes every instance query again, and claims racing with seeding into an
 * emptied pool never get a false sold-out (G3), and a repeat of a claim with its Idempotency-Key
 * is its first answer, not a sold-out (G4). Written once; each store runs it in a subclass.
 */
public abstract class SoldOutFastPathContract extends MultiInstanceTest {

  @Override
  protected Map<String, Object> instanceProperties() {
    return Map.of(ClaimStoreCalls.PROPERTY, "true");
  }

  /**
   * Pool queries instance {@code i} has made so far for the campaign. By default the calls of the
   * claim store's {@code tryClaim}, the one step of a claim that queries the pool; a store may
   * count them on the wire instead.
   */
  protected long poolQueries(int i, String campaign) {
    return instances.get(i).context().getBean(ClaimStoreCalls.class).tryClaims();
  }

  /** G3 with the fast path: 410 without a query once proven, and a query again after a seeding. */
  @Test
  void aProvenSoldOutAnswersWithoutAPoolQueryUntilCouponsAreAdded() throws Exception {
    String campaign = newCampaign(1, 3);
    for (int i = 0; i < 3; i++) {
      assertThat(claim(i, campaign, "early-" + i).status()).isEqualTo(201);
    }
    // On each instance the first 410 comes from a pool query; the second reads the counter first,
    // queries, and so makes the proof.
    for (int i = 0; i < INSTANCES; i++) {
      for (int j = 0; j < 2; j++) {
        assertThat(claim(i, campaign, "prover-" + i + "-" + j).status()).isEqualTo(410);
      }
    }
    long[] queries = perInstance(i -> poolQueries(i, campaign));
    long[] proven = perInstance(i -> proofs(i).provenSoldOuts());
    long[] reads = perInstance(i -> proofs(i).reads());

    int late = 30 * INSTANCES;
    List<Claimer.Result> results =
        runAll(late, i -> () -> Claimer.claimUntilFinal(instance(i), campaign, "late-" + i));

    assertThat(results).extracting(Claimer.Result::status).containsOnly(410);
    for (int i = 0; i < INSTANCES; i++) {
      assertThat(poolQueries(i, campaign)).as("pool queries of instance %d", i).isEqualTo(queries[i]);
      assertThat(proofs(i).provenSoldOuts() - proven[i]).as("instance %d", i).isEqualTo(late / INSTANCES);
      assertThat(proofs(i).reads() - reads[i]).as("counter reads of instance %d", i)
          .isBetween(1L, (long) late / INSTANCES);
      assertThat(scraped(i, "flashclaim_soldout_proven_total"))
          .as("the meter of instance %d", i)
          .isEqualTo(proofs(i).provenSoldOuts());
    }

    // Coupons added through one instance: every instance queries the pool again, at once.
    seed(0, campaign, "more", INSTANCES);
    for (int i = 0; i < INSTANCES; i++) {
      long before = poolQueries(i, campaign);
      assertThat(claim(i, campaign, "after-seeding-" + i).status()).isEqualTo(201);
      assertThat(poolQueries(i, campaign)).as("pool queries of instance %d", i).isGreaterThan(before);
    }
    for (int i = 0; i < INSTANCES; i++) {
      assertThat(claim(i, campaign, "emptied-again-" + i).status()).isEqualTo(410);
    }
    assertStoreConsistent(campaign, 3 + INSTANCES);
    assertAuditOk(campaign, 3 + INSTANCES);
  }

  /** An instance with one admission slot, room for one claim to wait, and two store threads. */
  private ServiceInstance narrowInstance(Map<String, Object> more) {
    Map<String, Object> settings = new java.util.HashMap<>(more);
    settings.put("flashclaim.admission.limit", "fixed");
    settings.put("flashclaim.admission.initial-limit", 1);
    settings.put("flashclaim.admission.max-queued", 1);
    settings.put("micronaut.executors.store.number-of-threads", 2);
    return startInstance(settings);
  }

  /**
   * G6 with the fast path: claims an instance can answer without the store (a proven sold-out for
   * users who hold nothing, a campaign not open yet) take no admission slot. An instance with one
   * slot, room for one claim to wait and two store threads answers 120 such claims sent at once
   * with 410 (or 403) each, none with 503, and without a pool query.
   */
  @Test
  void answersThatNeedNoStoreTakeNoAdmissionSlot() throws Exception {
    String soldOut = newCampaign(1, 1);
    String upcoming = getClass().getSimpleName().toLowerCase() + "-upcoming-" + System.nanoTime();
    Api.createCampaign(instance(0), upcoming, 1, 5, Instant.now().plus(Duration.ofHours(1)), null);
    try (var narrow = narrowInstance(Map.of())) {
      SoldOutProofs proofs = narrow.context().getBean(SoldOutProofs.class);
      SoldOutHolders holders = narrow.context().getBean(SoldOutHolders.class);
      ClaimStoreCalls calls = narrow.context().getBean(ClaimStoreCalls.class);
      assertThat(Claimer.claimUntilFinal(narrow.url(), soldOut, "winner"))
          .matches(Claimer.Result::tookACoupon);
      // Two 410s make the proof; a third (proven) loads the holders; then the upcoming campaign.
      for (int j = 0; j < 3; j++) {
        assertThat(Claimer.claimUntilFinal(narrow.url(), soldOut, "prover-" + j).status()).isEqualTo(410);
      }
      awaitUntil(() -> holders.loads() > 0, "the holders of the sold-out campaign");
      assertThat(Claimer.claimUntilFinal(narrow.url(), upcoming, "early").status()).isEqualTo(403);
      long queries = calls.tryClaims();
      long proven = proofs.provenSoldOuts();

      int storm = 120;
      List<Integer> statuses =
          runAll(
              storm,
              storm,
              i -> () -> Claimer.claim(narrow.url(), i % 2 == 0 ? soldOut : upcoming,
                  Tokens.user("storm-" + i), null).status());

      assertThat(statuses.stream().filter(s -> s == 410).count()).isEqualTo(storm / 2);
      assertThat(statuses.stream().filter(s -> s == 403).count()).isEqualTo(storm / 2);
      assertThat(calls.tryClaims()).as("pool queries").isEqualTo(queries);
      assertThat(proofs.provenSoldOuts() - proven).isEqualTo(storm / 2);
    }
    assertStoreConsistent(soldOut, 1);
  }

  /**
   * While an instance has no snapshot of a proven sold-out campaign's holders (here never: the
   * campaign has more holders than {@code max-holders}), a claim is answered after one read of the
   * user's own claims, before admission ({@link SoldOutHoldingsReads}): with one slot and room for
   * one claim to wait, 60 claims of users who hold nothing sent at once are all answered 410, none
   * 503, with one holdings read each and no pool query; the holder, at the same time, still gets
   * their own coupon back (G4).
   */
  @Test
  void aProvenSoldOutWithoutItsHoldersReadsEachUsersHoldingsWithoutASlot() throws Exception {
    String soldOut = newCampaign(1, 1);
    // a deadline far beyond the storm's time: a read that starts after its claim's deadline (the
    // store's pool busy on a loaded machine) is skipped and made in the slot instead, which would
    // move one read from before admission to after it (seen once in a clean-clone run)
    try (var narrow =
        narrowInstance(
            Map.of(
                "flashclaim.sold-out.max-holders", 0,
                "flashclaim.sold-out.holdings-reads", 64,
                "flashclaim.claim.deadline", "20s"))) {
      SoldOutProofs proofs = narrow.context().getBean(SoldOutProofs.class);
      SoldOutHoldingsReads reads = narrow.context().getBean(SoldOutHoldingsReads.class);
      ClaimStoreCalls calls = narrow.context().getBean(ClaimStoreCalls.class);
      Claimer.Result won = Claimer.claimUntilFinal(narrow.url(), soldOut, "winner");
      assertThat(won).matches(Claimer.Result::tookACoupon);
      for (int j = 0; j < 3; j++) { // two 410s make the proof
        assertThat(Claimer.claimUntilFinal(narrow.url(), soldOut, "prover-" + j).status()).isEqualTo(410);
      }
      long queries = calls.tryClaims();
      long holdings = calls.holdings();
      long readsBefore = reads.reads();

      int storm = 60;
      List<Api.Response> results =
          runAll(
              storm + 1,
              storm + 1,
              i -> () -> Claimer.claim(
                  narrow.url(), soldOut, Tokens.user(i == storm ? "winner" : "storm-" + i), null));

      assertThat(results).extracting(Api.Response::status).containsOnly(410, 200);
      assertThat(results.subList(0, storm)).extracting(Api.Response::status).containsOnly(410);
      assertThat(results.get(storm).json()).containsEntry("code", won.code());
      // The holder's claim is read at the door and again at the edge (it holds the limit, so both
      // pass it on), then once more in its slot, where the controller answers its coupon.
      assertThat(reads.reads() - readsBefore).as("holdings reads before admission").isEqualTo(storm + 2);
      assertThat(calls.holdings() - holdings).as("holdings reads in all").isEqualTo(storm + 3);
      assertThat(calls.tryClaims()).as("pool queries").isEqualTo(queries);
      assertThat(proofs.hasProof(new flashclaim.campaign.CampaignId(soldOut))).isTrue();
    }
    assertStoreConsistent(soldOut, 1);
  }

  /**
   * G3 and G4 with the holders' snapshot ({@link SoldOutHolders}): once an instance has the holders
   * of a proven sold-out campaign, a user who holds nothing gets 410 without any store read of
   * their holdings, and every holder, through any instance, still gets their own coupon back.
   */
  @Test
  void aProvenSoldOutReadsNoHoldingsForUsersWhoHoldNothing() throws Exception {
    String campaign = newCampaign(1, INSTANCES);
    Map<String, String> codeOf = new java.util.HashMap<>();
    for (int i = 0; i < INSTANCES; i++) {
      Claimer.Result won = claim(i, campaign, "holder-" + i);
      assertThat(won.status()).isEqualTo(201);
      codeOf.put("holder-" + i, won.code());
    }
    proveSoldOutWithHolders(campaign);
    long[] reads = perInstance(i -> storeCalls(i).holdings());
    long[] proven = perInstance(i -> proofs(i).provenSoldOuts());

    int late = 30 * INSTANCES;
    List<Claimer.Result> lateResults =
        runAll(late, n -> () -> Claimer.claimUntilFinal(instance(n), campaign, "late-" + n));
    assertThat(lateResults).extracting(Claimer.Result::status).containsOnly(410);
    for (int i = 0; i < INSTANCES; i++) {
      assertThat(proofs(i).provenSoldOuts() - proven[i])
          .as("claims instance %d answered on a proof", i)
          .isEqualTo(late / INSTANCES);
      assertThat(storeCalls(i).holdings() - reads[i])
          .as("holdings reads of instance %d for users who hold nothing", i)
          .isZero();
    }

    // Every holder through every instance, at once: each gets their own coupon back (G4).
    int repeats = INSTANCES * INSTANCES;
    List<Claimer.Result> repeated =
        runAll(
            repeats,
            n -> () -> Claimer.claimUntilFinal(instance(n), campaign, "holder-" + n / INSTANCES));
    for (int n = 0; n < repeats; n++) {
      String holder = "holder-" + n / INSTANCES;
      assertThat(repeated.get(n).status()).as("repeat of %s", holder).isEqualTo(200);
      assertThat(repeated.get(n).code()).as("repeat of %s", holder).isEqualTo(codeOf.get(holder));
    }
    assertStoreConsistent(campaign, INSTANCES);
    assertAuditOk(campaign, INSTANCES);
  }

  /**
   * G4 with keys on the fast path: with two coupons per user, users who took the last coupons with
   * an Idempotency-Key each repeat that claim once every instance has the holders of the proven
   * sold-out, through every instance at once: each gets their first 201 again (replayed, not a
   * 410); the same users with a new key, and users who hold nothing, get 410 on the proof, and no
   * idempotency record is written. (Holdings reads are not counted: a claim whose instance's copy
   * of the campaign expired meanwhile takes the store path, which reads them first at this limit.
   * Such a claim also stores its 410 under its key, so the copies are read again just before.)
   */
  @Test
  void aRepeatWithItsKeyOfAUserBelowTheLimitIsTheFirstAnswerNotSoldOut() throws Exception {
    String campaign = newCampaign(2, INSTANCES);
    Map<String, Api.Response> first = new java.util.HashMap<>();
    for (int i = 0; i < INSTANCES; i++) {
      Claimer.Result won = Claimer.claimUntilFinal(instance(i), campaign, "holder-" + i, "first-holder-" + i);
      assertThat(won.status()).isEqualTo(201);
      first.put(won.user(), won.response());
    }
    proveSoldOutWithHolders(campaign);
    // Waiting for the snapshots may outlast the instances' copies of the campaign (1 s): a claim
    // without a key through each instance reads the campaign again, so that the round below is
    // answered at the claim edge, where a refusal writes no idempotency record.
    for (int i = 0; i < INSTANCES; i++) {
      assertThat(claim(i, campaign, "refresher-" + i).status()).isEqualTo(410);
    }
    long[] proven = perInstance(i -> proofs(i).provenSoldOuts());

    int each = INSTANCES * INSTANCES; // every holder through every instance
    List<Claimer.Result> results = repeatWithKeys(campaign, first, "late-");
    for (Claimer.Result result : results.subList(each, results.size())) {
      assertThat(result.status()).as("%s with a new key", result.user()).isEqualTo(410);
    }
    for (int i = 0; i < INSTANCES; i++) {
      assertThat(proofs(i).provenSoldOuts() - proven[i])
          .as("claims instance %d answered sold out on a proof: not the replays", i)
          .isEqualTo(2 * each / INSTANCES);
    }
    assertThat(backend().idempotencyRecords())
        .as("the first claims' records, and no other")
        .hasSize(INSTANCES)
        .allMatch(StoreBackend.StoredIdempotencyRecord::completed);
    assertStoreConsistent(campaign, INSTANCES);
  }

  /**
   * G3 while claims race with seeding into an emptied pool: claimers keep claiming through every
   * instance while coupons are added in rounds, each round only once every instance answers from
   * a proof again. A 410 is false if, for the whole time from its claim's start to its answer, an
   * unassigned coupon existed: more coupons had been added (seeding calls returned) before the
   * claim started than had been assigned by the time it was answered.
   */
  @Test
  void claimsRacingWithSeedingIntoAnEmptiedPoolGetNoFalseSoldOut() throws Exception {
    int initial = 10;
    int rounds = 4;
    int perRound = 15;
    String campaign = newCampaign(1, initial);
    List<Claimer.Result> drained =
        runAll(initial + 5, i -> () -> Claimer.claimUntilFinal(instance(i), campaign, "drain-" + i));
    assertThat(drained.stream().filter(r -> r.status() == 201)).hasSize(initial);

    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger nextUser = new AtomicInteger();
    Queue<Timed> answers = new ConcurrentLinkedQueue<>();
    List<Future<?>> claimers = new ArrayList<>();
    for (int t = 0; t < 12; t++) {
      claimers.add(
          clients.submit(
              () -> {
                while (!stop.get()) {
                  int n = nextUser.getAndIncrement();
                  Instant sent = Instant.now();
                  Claimer.Result result =
                      Claimer.claimUntilFinal(instance(n), campaign, "racer-" + n);
                  answers.add(new Timed(sent, result));
                  Thread.sleep(5);
                }
                return null;
              }));
    }
    List<Instant> seeded = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      awaitProofOnEveryInstance();
      seed(round % INSTANCES, campaign, "round-" + round, perRound);
      seeded.add(Instant.now());
    }
    awaitUntil(
        () -> answers.stream().filter(a -> a.result().status() == 201).count() == rounds * perRound,
        "every added coupon claimed");
    awaitProofOnEveryInstance();
    stop.set(true);
    for (Future<?> claimer : claimers) {
      claimer.get(120, TimeUnit.SECONDS);
    }

    Map<Integer, Long> byStatus =
        answers.stream().collect(Collectors.groupingBy(a -> a.result().status(), Collectors.counting()));
    assertThat(byStatus).containsOnlyKeys(201, 410);
    assertThat(byStatus.get(201)).isEqualTo((long) rounds * perRound);
    int total = initial + rounds * perRound;
    assertStoreConsistent(campaign, total);
    assertAuditOk(campaign, total);

    List<Instant> assignedAt =
        backend().coupons(campaign).stream()
            .map(StoreBackend.StoredCoupon::assignedAt)
            .sorted()
            .toList();
    List<Timed> falseSoldOuts =
        answers.stream()
            .filter(a -> a.result().status() == 410)
            .filter(
                a ->
                    initial + perRound * seeded.stream().filter(s -> s.isBefore(a.sent())).count()
                        > assignedAt.stream().filter(t -> !t.isAfter(a.result().answeredAt())).count())
            .toList();
    assertThat(falseSoldOuts).as("410s while a coupon was left for the whole claim").isEmpty();
    assertThat(byStatus.get(410)).as("claims answered sold out").isPositive();
  }

  /** The time a claim was sent, and its final answer. */
  private record Timed(Instant sent, Claimer.Result result) {}

  /**
   * Proves the emptied pool of {@code campaign} sold out on every instance and waits until each
   * has its snapshot of the holders: two 410s make an instance's proof, a third (proven) starts
   * its snapshot.
   */
  private void proveSoldOutWithHolders(String campaign) throws InterruptedException {
    long[] loads = perInstance(i -> holders(i).loads());
    for (int i = 0; i < INSTANCES; i++) {
      for (int j = 0; j < 3; j++) {
        assertThat(claim(i, campaign, "prover-" + i + "-" + j).status()).isEqualTo(410);
      }
    }
    awaitUntil(
        () -> IntStream.range(0, INSTANCES).allMatch(i -> holders(i).loads() > loads[i]),
        "the holders' snapshot on every instance");
  }

  /**
   * Until every instance has answered a claim from a proof: counts the proven 410s of each and
   * waits for each count to move (the claimers run meanwhile).
   */
  private void awaitProofOnEveryInstance() throws InterruptedException {
    long[] before = perInstance(i -> proofs(i).provenSoldOuts());
    awaitUntil(
        () -> IntStream.range(0, INSTANCES).allMatch(i -> proofs(i).provenSoldOuts() > before[i]),
        "a proven sold-out on every instance");
  }

  private static void awaitUntil(java.util.function.BooleanSupplier condition, String what)
      throws InterruptedException {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(120));
    while (!condition.getAsBoolean()) {
      assertThat(Instant.now()).as("waiting for " + what).isBefore(deadline);
      Thread.sleep(20);
    }
  }

  protected SoldOutProofs proofs(int i) {
    return instances.get(i).context().getBean(SoldOutProofs.class);
  }

  private SoldOutHolders holders(int i) {
    return instances.get(i).context().getBean(SoldOutHolders.class);
  }

  private ClaimStoreCalls storeCalls(int i) {
    return instances.get(i).context().getBean(ClaimStoreCalls.class);
  }

  protected Claimer.Result claim(int i, String campaign, String user) {
    return Claimer.claimUntilFinal(instance(i), campaign, user);
  }

  /** The codes {@code <campaign>-<from>} to {@code <campaign>-<to - 1>}. */
  protected static List<String> codes(String campaign, int from, int to) {
    return IntStream.range(from, to).mapToObj(n -> campaign + "-" + n).toList();
  }

  /** Adds {@code count} codes named {@code <campaign>-<prefix>-<n>} through instance {@code i}. */
  protected void seed(int i, String campaign, String prefix, int count)
      throws InterruptedException {
    List<String> codes =
        IntStream.range(0, count).mapToObj(n -> campaign + "-" + prefix + "-" + n).toList();
    assertThat(addCodes(i, campaign, codes)).isEqualTo(count);
  }

  /**
   * Adds the codes through instance {@code i}; how many were new. Like the claimer, it retries
   * what the service says to retry: the modification guard's 409 (another seeding of the campaign
   * is in progress) and a 503.
   */
  protected int addCodes(int i, String campaign, List<String> codes) throws InterruptedException {
    String body =
        codes.stream().map(c -> '"' + c + '"').collect(Collectors.joining(",", "{\"codes\":[", "]}"));
    for (int attempt = 0; attempt < Claimer.MAX_TRIES; attempt++) {
      Api.Response added =
          Api.post(instance(i), "/v1/admin/campaigns/" + campaign + "/coupons", Tokens.admin(), body);
      if (added.status() != 503 && !Claimer.isConcurrentModification(added)) {
        assertThat(added.status()).as(added.toString()).isEqualTo(200);
        return ((Number) added.json().get("added")).intValue();
      }
      Thread.sleep(20);
    }
    throw new AssertionError("adding codes was refused " + Claimer.MAX_TRIES + " times in a row");
  }

  /** A counter as instance {@code i} shows it at {@code /prometheus}. */
  private long scraped(int i, String series) {
    Api.Response response = Api.get(instance(i), "/prometheus", null);
    assertThat(response.status()).isEqualTo(200);
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("(?m)^" + series + "(\\{[^}]*})? ([0-9.eE+-]+)$")
            .matcher(response.body());
    assertThat(m.find()).as(series + " at /prometheus").isTrue();
    return (long) Double.parseDouble(m.group(2));
  }

  private long[] perInstance(java.util.function.IntToLongFunction value) {
    long[] values = new long[INSTANCES];
    for (int i = 0; i < INSTANCES; i++) {
      values[i] = value.applyAsLong(i);
    }
    return values;
  }
}
