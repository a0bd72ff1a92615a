package flashclaim.claim;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.store.firestore.SlowPoolQueries;
import flashclaim.testing.Api;
import flashclaim.testing.Claimer;
import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.Tokens;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The end of a pool proven when every query of it takes longer than a claim's deadline, as on a
 * saturated store (the queries of the campaign's coupons are held back on the wire): the claims of
 * the emptied pool are answered busy at first, and then sold out, on a query that outlived the
 * claim that started it and a read of the additions counter before it ({@link SoldOutProofs}).
 * Without that, every retry would start a query of its own and be answered busy at its deadline.
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
