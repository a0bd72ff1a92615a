package flashclaim.claim;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.store.firestore.QueryRecorder;
import flashclaim.store.firestore.SlowPoolQueries;
import flashclaim.testing.Api;
import flashclaim.testing.Claimer;
import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.Tokens;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The end of a pool proven from a query that another claim started (the queries of the campaign's
 * coupons are held back on the wire, as a slow or saturated store answers them):
 *
 * <ul>
 *   <li>when every query takes longer than a claim's deadline, the claims of the emptied pool are
 *       answered busy at first, and then sold out, on a query that outlived the claim that started
 *       it and a read of the additions counter before it ({@link SoldOutProofs}); without that,
 *       every retry would start a query of its own and be answered busy at its deadline;
 *   <li>claims that come while the query that finds the pool empty runs are answered sold out
 *       from it and a read of the counter, without a query of their own: the instance read the
 *       counter as the pool ran low, before that query began.
 * </ul>
 */
class FirestoreLateSoldOutProofTest {
  private static final Duration DEADLINE = Duration.ofSeconds(1);
  private static final Duration QUERY_DELAY = Duration.ofMillis(2_500);
  private static final Duration GIVE_UP_AFTER = Duration.ofSeconds(60);

  @Test
  void aSaleWhosePoolQueriesOutliveEveryClaimIsStillProvenSoldOut() throws Exception {
    new FirestoreBackend().reset();
    try (ServiceInstance one =
        ServiceInstance.start(
            Map.of(
                SlowPoolQueries.PROPERTY, "true",
                "flashclaim.claim.deadline", DEADLINE.toMillis() + "ms"))) {
      Api.createCampaign(one.url(), "late-proof", 1, 1);
      assertThat(Claimer.claimUntilFinal(one.url(), "late-proof", "first"))
          .matches(Claimer.Result::tookACoupon);
      one.context().getBean(SlowPoolQueries.class).slowDown(QUERY_DELAY);

      List<String> answers = answersUntilFinal(one, "late-proof", "late");

      assertThat(answers).as("answers in order").last().isEqualTo("410 sold-out");
      assertThat(answers).as("answered busy while no query returned in time").contains("503 busy");
      assertThat(answers.stream().filter("410 sold-out"::equals)).hasSize(1);
    }
  }

  @Test
  void claimsThatComeWhileTheQueryThatEmptiesThePoolRunsAreProvenSoldOutWithoutAQueryOfTheirOwn()
      throws Exception {
    new FirestoreBackend().reset();
    ExecutorService clients = Executors.newFixedThreadPool(6);
    try (ServiceInstance one =
        ServiceInstance.start(
            Map.of(
                SlowPoolQueries.PROPERTY, "true",
                QueryRecorder.PROPERTY, "true",
                // the candidates of the first probe stay fresh however slow the machine
                "flashclaim.firestore.claim.candidate-max-age", "5m",
                // the later claims wait for the slowed query that finds the pool empty
                "flashclaim.claim.deadline", "10s"))) {
      Api.createCampaign(one.url(), "sale-end", 1, 3);
      for (String user : List.of("a", "b")) {
        assertThat(Claimer.claimUntilFinal(one.url(), "sale-end", user))
            .matches(Claimer.Result::tookACoupon);
      }
      QueryRecorder queries = one.context().getBean(QueryRecorder.class);
      SoldOutProofs proofs = one.context().getBean(SoldOutProofs.class);
      // the first probe read all 3 coupons, fewer than it asked for: the pool runs out, and the
      // wins read the additions counter; wait until one such read has returned
      long until = System.nanoTime() + GIVE_UP_AFTER.toNanos();
      while (proofs.reads() == 0 && System.nanoTime() < until) {
        Thread.sleep(10);
      }
      Thread.sleep(200);
      assertThat(proofs.reads()).as("reads of the counter").isPositive();
      // the probe that the second win started ahead of need has ended (it is not counted below)
      MeterRegistry meters = one.context().getBean(MeterRegistry.class);
      while (probesBusy(meters) && System.nanoTime() < until) {
        Thread.sleep(10);
      }
      assertThat(probesBusy(meters)).as("probes running or queued").isFalse();
      // each query of the pool from now on is sent 1.5 s late: the last coupon's commit, sent at
      // once, has landed by the time the probe that its take starts reads the pool
      one.context().getBean(SlowPoolQueries.class).slowDown(Duration.ofMillis(1_500));
      long queriesBefore = queries.poolQueries();
      // the last coupon: taking it starts the pool's next probe, which will find it empty, and
      // takes 3 s (1.5 s from its random point, 1.5 s over the whole range)
      assertThat(Claimer.claimUntilFinal(one.url(), "sale-end", "c"))
          .matches(Claimer.Result::tookACoupon);
      List<Future<Claimer.Result>> later = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        String user = "later-" + i;
        later.add(clients.submit(() -> Claimer.claimUntilFinal(one.url(), "sale-end", user)));
      }

      for (Future<Claimer.Result> answer : later) {
        assertThat(answer.get(30, TimeUnit.SECONDS).status()).isEqualTo(410);
      }
      assertThat(queries.poolQueries() - queriesBefore)
          .as("the two queries of the probe the last coupon started, none for the later claims")
          .isEqualTo(2);
      assertThat(proofs.provenSoldOuts()).as("later claims answered on a proof").isPositive();
    } finally {
      clients.shutdownNow();
    }
  }

  /** Whether the pool's probes are running or queued, by the meters of their executor. */
  private static boolean probesBusy(MeterRegistry meters) {
    double active = meters.get("executor.active").tag("name", "flashclaim-probes").gauge().value();
    double queued = meters.get("executor.queued").tag("name", "flashclaim-probes").gauge().value();
    return active > 0 || queued > 0;
  }

  /** Every answer to one user's claim, sent again after each 503 or 429's Retry-After. */
  private static List<String> answersUntilFinal(ServiceInstance instance, String campaign, String user)
      throws InterruptedException {
    String token = Tokens.user(user);
    String ticket = null;
    List<String> answers = new ArrayList<>();
    long until = System.nanoTime() + GIVE_UP_AFTER.toNanos();
    while (System.nanoTime() < until) {
      Api.Response response = Claimer.claim(instance.url(), campaign, token, ticket);
      Object type = response.status() >= 400 ? response.json().get("type") : null;
      answers.add(response.status() + (type == null ? "" : " " + String.valueOf(type).replace("urn:flashclaim:problem:", "")));
      if (response.status() != 503 && response.status() != 429) {
        return answers;
      }
      ticket = response.header(Claimer.TICKET) != null ? response.header(Claimer.TICKET) : ticket;
      Thread.sleep(Long.parseLong(response.header("Retry-After")) * 1_000);
    }
    return answers;
  }
}
