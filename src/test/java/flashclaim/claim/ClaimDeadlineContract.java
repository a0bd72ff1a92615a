package flashclaim.claim;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.Api;
import flashclaim.testing.Claimer;
import flashclaim.testing.MultiInstanceTest;
import flashclaim.testing.Tokens;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * G6 and G5 when the store stalls: claims whose store calls cannot finish (another client holds the
 * locks they need, or the store stops answering) answer 503 {@code busy} with Retry-After by their
 * deadline plus a small margin, long before the store's call timeout would have ended their wait;
 * they leave nothing half done, and once the store moves again each of their users gets exactly
 * one coupon: a retry either claims it or, if a write that the deadline cut short landed after all,
 * gets that one back (G4).
 * Concurrently, through {@value MultiInstanceTest#INSTANCES} instances sharing one store. Written
 * once; each store runs it through a subclass that knows how to stall it.
 */
public abstract class ClaimDeadlineContract extends MultiInstanceTest {
  /** The claims' deadline: short, so that the test can tell it from the call timeout. */
  protected static final Duration DEADLINE = Duration.ofMillis(300);

  /** The store's own call timeout, far longer than the deadline. */
  protected static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);

  /**
   * What an answer may take past the deadline, measured by the client from the request: HTTP,
   * token check and scheduling on a loaded machine. Well below the call timeout, and below the 2 s
   * the Firestore emulator lets a write wait for a lock, so that an answer within it shows that the
   * deadline, and nothing else, ended the wait.
   */
  private static final Duration MARGIN = Duration.ofMillis(1_500);

  private static final int USERS = 24;

  /** Properties of the instances: at least the store's call timeout, {@link #CALL_TIMEOUT}. */
  protected abstract Map<String, Object> storeProperties();

  /**
   * Stalls the store for claims of these users in the campaign (one coupon per user) until
   * closed. Closing lets the store move again, without writing anything itself.
   */
  protected abstract AutoCloseable stall(String campaign, List<UserId> users) throws Exception;

  /**
   * Whether the writes that the deadline cut short may still land once the store moves again;
   * false when the store aborts them.
   */
  protected boolean cutWritesMayLand() {
    return false;
  }

  @Override
  protected Map<String, Object> instanceProperties() {
    Map<String, Object> properties = new HashMap<>(storeProperties());
    properties.put("flashclaim.claim.deadline", DEADLINE.toMillis() + "ms");
    return properties;
  }

  @Test
  void claimsOnAStalledStoreAnswerBusyByTheirDeadlineAndLeaveItConsistent() throws Exception {
    warmUp();
    String campaign = newCampaign(1, USERS + INSTANCES);
    for (int i = 0; i < INSTANCES; i++) { // each instance has the campaign cached and probed
      assertThat(Claimer.claimUntilFinal(instance(i), campaign, "primer-" + i).status())
          .isIn(200, 201);
    }
    List<String> users = IntStream.range(0, USERS).mapToObj(i -> "stalled-" + i).toList();

    List<Timed> answers;
    try (AutoCloseable stalled = stall(campaign, users.stream().map(UserId::new).toList())) {
      answers = runAll(USERS, i -> () -> Timed.claim(instance(i), campaign, users.get(i)));
    }

    // Busy at the deadline; on a loaded machine admission may also refuse a few at once
    // (overloaded), which writes nothing either. Most must have waited on the stalled store.
    assertThat(answers)
        .allSatisfy(
            answer -> {
              assertThat(answer.response().status()).as(answer.toString()).isEqualTo(503);
              assertThat(answer.response().header("Retry-After")).isNotNull();
              assertThat(answer.response().json().get("type"))
                  .as(answer.toString())
                  .isIn("urn:flashclaim:problem:busy", "urn:flashclaim:problem:overloaded");
              assertThat(answer.took()).as(answer.toString()).isLessThan(DEADLINE.plus(MARGIN));
            });
    assertThat(answers.stream().filter(a -> "urn:flashclaim:problem:busy".equals(a.response().json().get("type"))))
        .as("answered busy by the deadline")
        .hasSizeGreaterThan(USERS / 2);
    assertStoreConsistent(campaign, cutWritesMayLand() ? -1 : INSTANCES);

    List<Claimer.Result> retried =
        runAll(USERS, i -> () -> Claimer.claimUntilFinal(instance(i), campaign, users.get(i)));
    assertThat(retried).allSatisfy(r -> assertThat(r.status()).as(r.toString()).isIn(200, 201));
    assertStoreConsistent(campaign, USERS + INSTANCES);
    assertAuditOk(campaign, USERS + INSTANCES);
  }

  /**
   * Claims as many at once as the test will, on another campaign: the first claims of a cold
   * instance are slow for reasons that have nothing to do with the store (classes to load, the
   * JIT, connections to open). A 200 is a claim that the deadline cut short but that landed.
   */
  private void warmUp() throws Exception {
    String warm = newCampaign(1, USERS);
    List<Claimer.Result> warmed =
        runAll(USERS, i -> () -> Claimer.claimUntilFinal(instance(i), warm, "warm-" + i));
    assertThat(warmed).allSatisfy(r -> assertThat(r.status()).isIn(200, 201));
  }

  /** An answer and how long it took, from just before the request was sent. */
  private record Timed(Api.Response response, Duration took) {
    static Timed claim(URI instance, String campaign, String user) {
      String token = Tokens.user(user);
      long sent = System.nanoTime();
      Api.Response response =
          Api.post(instance, "/v1/campaigns/" + campaign + "/claims", token, null);
      return new Timed(response, Duration.ofNanos(System.nanoTime() - sent));
    }
  }
}
