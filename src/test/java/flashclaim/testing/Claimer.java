package flashclaim.testing;

import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A user pressing "Claim Coupon" until the service gives a final answer: it retries what the
 * service says to retry, as a client honouring Retry-After would (but after a short pause to keep
 * tests fast): a 503, and a 409 {@code concurrent-modification} (another click of the same user is
 * being served). Like a good client it sends the {@value #TICKET} of the last 503 back with the
 * retry, which keeps the user's place in line. Its pause is shorter than the Retry-After, so after
 * a 503 the instance answers its retries 429 {@code retry-too-soon} until that time has come: those
 * it retries as it does a 503, with the same ticket, and counts apart. It records when the final
 * answer arrived and how many of each came before it.
 */
public final class Claimer {
  public static final int MAX_TRIES = 400;
  /** The header of the service's 503s that a retry sends back unchanged. */
  public static final String TICKET = "Flashclaim-Ticket";
  public static final String CONCURRENT_MODIFICATION =
      "urn:flashclaim:problem:concurrent-modification";
  /**
   * The longest run of 429s in a row: the longest Retry-After a claim is told ({@code
   * flashclaim.admission.max-retry-after}, 30 s) and some.
   */
  private static final Duration MAX_TOO_SOON = Duration.ofSeconds(40);

  private Claimer() {}

  /**
   * The final answer of one user's claim, with how many retries came before it, how many of those
   * were 409s of the modification guard and how many were 429s for coming back too soon.
   */
  public record Result(
      String user,
      Api.Response response,
      int retries,
      int conflicts,
      int tooSoon,
      Instant answeredAt) {
    public int status() {
      return response.status();
    }

    public String code() {
      return (String) response.json().get("code");
    }

    /**
     * Whether this claim, its user's first, took a coupon: 201, or 200 after an attempt answered
     * 503 whose claim had landed all the same (its retry found the coupon held, as a client's
     * does), which a loaded machine answers now and then.
     */
    public boolean tookACoupon() {
      return status() == 201 || (status() == 200 && retries > 0);
    }
  }

  public static Result claimUntilFinal(URI instance, String campaign, String user) {
    return claimUntilFinal(instance, campaign, user, null);
  }

  /** As {@link #claimUntilFinal(URI, String, String)}, every try with {@code key} as its Idempotency-Key. */
  public static Result claimUntilFinal(URI instance, String campaign, String user, String key) {
    return claimUntilFinal(instance, campaign, user, Tokens.user(user), key);
  }

  /**
   * As {@link #claimUntilFinal(URI, String, String)}, with a token signed elsewhere (another auth
   * mode's); {@code user} only names the caller in the result and in failures.
   */
  public static Result claimWithTokenUntilFinal(
      URI instance, String campaign, String user, String token) {
    return claimUntilFinal(instance, campaign, user, token, null);
  }

  private static Result claimUntilFinal(
      URI instance, String campaign, String user, String token, String key) {
    int conflicts = 0;
    int tooSoon = 0;
    long tooSoonSince = 0;
    String ticket = null;
    for (int attempt = 0; attempt - tooSoon < MAX_TRIES; attempt++) {
      Api.Response response = claim(instance, campaign, token, ticket, key);
      boolean conflict = isConcurrentModification(response);
      boolean early = response.status() == 429;
      if (response.status() != 503 && !conflict && !early) {
        return new Result(user, response, attempt, conflicts, tooSoon, Instant.now());
      }
      if (response.header("Retry-After") == null) {
        throw new AssertionError(response.status() + " without Retry-After: " + response);
      }
      if (conflict) {
        conflicts++;
      }
      if (!early) {
        tooSoonSince = 0;
      } else if (tooSoonSince == 0) {
        tooSoonSince = System.nanoTime();
      } else if (System.nanoTime() - tooSoonSince > MAX_TOO_SOON.toNanos()) {
        throw new AssertionError(user + " got 429 for longer than " + MAX_TOO_SOON + ": " + response);
      }
      tooSoon += early ? 1 : 0;
      if (response.header(TICKET) != null) {
        ticket = response.header(TICKET);
      }
      try {
        Thread.sleep(20 + ThreadLocalRandom.current().nextInt(60));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    throw new AssertionError(user + " got 503 or 409 " + MAX_TRIES + " times in a row");
  }

  /** One claim, with a ticket to send back or none. */
  public static Api.Response claim(URI instance, String campaign, String token, String ticket) {
    return claim(instance, campaign, token, ticket, null);
  }

  /** One claim, with a ticket to send back or none, and an Idempotency-Key or none. */
  public static Api.Response claim(
      URI instance, String campaign, String token, String ticket, String key) {
    HttpRequest.Builder request =
        Api.request(instance, "/v1/campaigns/" + campaign + "/claims", token)
            .POST(HttpRequest.BodyPublishers.noBody());
    if (ticket != null) {
      request.header(TICKET, ticket);
    }
    if (key != null) {
      request.header("Idempotency-Key", key);
    }
    return Api.send(request.build());
  }

  /** The modification guard's 409: another modification of the same resource is in progress. */
  public static boolean isConcurrentModification(Api.Response response) {
    return response.status() == 409
        && response.contentType() != null
        && response.contentType().startsWith("application/problem+json")
        && CONCURRENT_MODIFICATION.equals(response.json().get("type"));
  }
}
