package flashclaim.testing;

import java.net.URI;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A user pressing "Claim Coupon" until the service gives a final answer: it retries a 503 (as a
 * client honouring Retry-After would, but after a short pause to keep tests fast) and records when
 * the final answer arrived.
 */
public final class Claimer {
  public static final int MAX_TRIES = 400;

  private Claimer() {}

  /** The final answer of one user's claim, with how many 503s came before it. */
  public record Result(String user, Api.Response response, int retries, Instant answeredAt) {
    public int status() {
      return response.status();
    }

    public String code() {
      return (String) response.json().get("code");
    }
  }

  public static Result claimUntilFinal(URI instance, String campaign, String user) {
    String token = Tokens.user(user);
    for (int attempt = 0; attempt < MAX_TRIES; attempt++) {
      Api.Response response = Api.post(instance, "/v1/campaigns/" + campaign + "/claims", token, null);
      if (response.status() != 503) {
        return new Result(user, response, attempt, Instant.now());
      }
      if (response.header("Retry-After") == null) {
        throw new AssertionError("503 without Retry-After: " + response);
      }
      try {
        Thread.sleep(20 + ThreadLocalRandom.current().nextInt(60));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    throw new AssertionError(user + " got 503 " + MAX_TRIES + " times in a row");
  }
}
