package flashclaim.http;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.admission.ClaimPacing;
import flashclaim.http.problem.Problem;
import flashclaim.testing.Api;
import flashclaim.testing.Claimer;
import flashclaim.testing.CountedTokens;
import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.HeldClaims;
import flashclaim.testing.RawHttp;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.Tokens;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A client that retries sooner than it was told gains nothing: one instance with one claim slot,
 * held by a claim of another campaign, and no room to wait refuses a claim 503 {@code overloaded}
 * with Retry-After; the same token's retry before that time is answered 429 {@code retry-too-soon}
 * with the time left and its ticket, without its token being verified (its signature is checked
 * once, for the 503); other callers, the same token for another campaign, and garbage tokens meet
 * authentication and admission as before; and the retry at its Retry-After gets its coupon.
 */
class EarlyRetryTest {
  private static final String TOO_SOON = "urn:flashclaim:problem:retry-too-soon";
  private static final String OVERLOADED = "urn:flashclaim:problem:overloaded";

  @Test
  void aRetrySoonerThanToldIsAnsweredFromMemoryAndOneAtItsTimeIsServed() throws Exception {
    new FirestoreBackend().reset();
    ExecutorService clients = Executors.newFixedThreadPool(2);
    // Answered at once: the hold of the answer is the next test's.
    try (ServiceInstance one =
        HeldClaims.oneSlot(Map.of("flashclaim.admission.pacing.hold-too-soon", "0s"))) {
      URI url = one.url();
      CountedTokens verified = one.context().getBean(CountedTokens.class);
      ClaimPacing pacing = one.context().getBean(ClaimPacing.class);
      // Campaign names of this test alone: HeldClaims keeps what it holds and serves by name, per JVM.
      Api.createCampaign(url, "paced", 1, 10);
      Api.createCampaign(url, "paced-elsewhere", 1, 10);
      Future<Api.Response> holder = HeldClaims.holdTheSlot(one, clients, "paced-hold", "holder");

      String token = Tokens.user("early");
      Api.Response refused = Claimer.claim(url, "paced", token, null);
      assertThat(refused.status()).as(refused.body()).isEqualTo(503);
      assertThat(refused.json().get("type")).isEqualTo(OVERLOADED);
      long retryAfter = Long.parseLong(refused.header("Retry-After"));
      String ticket = refused.header(Claimer.TICKET);
      assertThat(ticket).isNotBlank();
      assertThat(verified.verified("early")).isEqualTo(1);

      // At once, with the ticket and without it: 429 from memory, the token not verified again.
      Api.Response early = Claimer.claim(url, "paced", token, ticket);
      assertThat(early.status()).as(early.body()).isEqualTo(429);
      assertThat(early.contentType()).startsWith("application/problem+json");
      assertThat(early.json())
          .containsEntry("type", TOO_SOON)
          .containsEntry("title", "Retry too soon")
          .containsEntry("status", 429)
          .containsEntry("instance", "/v1/campaigns/paced/claims");
      // Too early, it lost the tolerance: it waits until a tolerance past the time it was told.
      assertThat(Long.parseLong(early.header("Retry-After"))).isBetween(1L, retryAfter + 1);
      assertThat(early.header(Claimer.TICKET)).isEqualTo(ticket);
      Api.Response earlyWithoutTicket = Claimer.claim(url, "paced", token, null);
      long lastToldAt = System.nanoTime();
      assertThat(earlyWithoutTicket.status()).isEqualTo(429);
      long lastRetryAfter = Long.parseLong(earlyWithoutTicket.header("Retry-After"));
      assertThat(earlyWithoutTicket.header(Claimer.TICKET)).isNull();
      assertThat(verified.verified("early")).isEqualTo(1);
      assertThat(pacing.tooEarlyCount()).isEqualTo(2);

      // Another caller, and the same token for another campaign, are admitted as before (and
      // refused: the slot is still held).
      Api.Response other = Claimer.claim(url, "paced", Tokens.user("other"), null);
      assertThat(other.status()).as(other.body()).isEqualTo(503);
      assertThat(other.json().get("type")).isEqualTo(OVERLOADED);
      Api.Response elsewhere = Claimer.claim(url, "paced-elsewhere", token, null);
      assertThat(elsewhere.status()).as(elsewhere.body()).isEqualTo(503);
      assertThat(verified.verified("early")).isEqualTo(2);

      // Garbage and forged tokens were never answered 503: authentication refuses them, each time.
      String forged =
          Tokens.mint("early", List.of(), Duration.ofHours(1), "another-secret-0123456789abcdef-xyz");
      for (String bad : List.of("garbage", forged, "garbage", forged)) {
        Api.Response refusedToken = Claimer.claim(url, "paced", bad, null);
        assertThat(refusedToken.status()).as(refusedToken.body()).isEqualTo(401);
      }
      assertThat(pacing.tooEarlyCount()).isEqualTo(2);

      HeldClaims.release("paced-hold");
      assertThat(holder.get(60, TimeUnit.SECONDS).status()).isEqualTo(201);
      // Back after the Retry-After of the last answer, with its ticket.
      long due = lastToldAt + TimeUnit.SECONDS.toNanos(lastRetryAfter);
      TimeUnit.NANOSECONDS.sleep(Math.max(0, due - System.nanoTime()));
      Api.Response served = Claimer.claim(url, "paced", token, ticket);
      assertThat(served.status()).as(served.body()).isEqualTo(201);
      assertThat(verified.verified("early")).isEqualTo(3);
      assertThat(pacing.tooEarlyCount()).isEqualTo(2);
      assertThat(Api.get(url, "/prometheus", null).body().lines())
          .contains("flashclaim_admission_too_early_total 2.0")
          // no new user was told a turn beyond their wait: the sell-out forecast read nothing
          .contains("flashclaim_claim_sell_out_reads_total 0.0");
    } finally {
      HeldClaims.release("paced-hold");
      clients.shutdownNow();
    }
  }

  /**
   * With the default hold, the 429 to a retry too soon comes only once the wait its caller has
   * left is over (at most {@code hold-too-soon}, 5 s), telling the least wait there is, and without
   * its token being verified: a client that retries as soon as each answer comes sends one claim
   * per wait it was told. The same at the claim door (a kept-alive connection) and through the
   * pacing filter (a connection closed after each answer, which the door leaves to the pipeline).
   */
  @Test
  void theAnswerToARetryTooSoonIsHeldForTheWaitLeftAtTheDoorAndThroughTheFilters()
      throws Exception {
    new FirestoreBackend().reset();
    ExecutorService clients = Executors.newFixedThreadPool(2);
    try (ServiceInstance one = HeldClaims.oneSlot(Map.of())) {
      URI url = one.url();
      CountedTokens verified = one.context().getBean(CountedTokens.class);
      ClaimPacing pacing = one.context().getBean(ClaimPacing.class);
      Api.createCampaign(url, "held-early", 1, 10);
      Future<Api.Response> holder =
          HeldClaims.holdTheSlot(one, clients, "held-early-hold", "holder");
      long tooEarly = 0;
      for (boolean keptAlive : new boolean[] {true, false}) {
        String user = keptAlive ? "held-door" : "held-filter";
        String token = Tokens.user(user);
        Api.Response refused = claim(url, token, keptAlive);
        long toldAt = System.nanoTime();
        assertThat(refused.status()).as(refused.body()).isEqualTo(503);
        long told = Long.parseLong(refused.header(Problem.RETRY_AFTER_MS));
        assertThat(verified.verified(user)).isEqualTo(1);

        long sentAt = System.nanoTime();
        Api.Response early = claim(url, token, keptAlive);
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sentAt);
        long sinceToldMs = TimeUnit.NANOSECONDS.toMillis(sentAt - toldAt);
        tooEarly++;
        assertThat(early.status()).as(early.body()).isEqualTo(429);
        assertThat(early.json()).containsEntry("type", TOO_SOON);
        assertThat(tookMs).as("held for the wait left").isGreaterThanOrEqualTo(
            Math.min(told, HOLD_MS) - sinceToldMs);
        long rest = Long.parseLong(early.header(Problem.RETRY_AFTER_MS));
        // The hold and the rest make the wait it was told, and the tolerance it lost.
        assertThat(tookMs + rest).isLessThanOrEqualTo(told + TOLERANCE_MS + 1_000);
        if (told + TOLERANCE_MS <= HOLD_MS) {
          assertThat(rest).isEqualTo(1);
        }
        assertThat(verified.verified(user)).isEqualTo(1);
        assertThat(pacing.tooEarlyCount()).isEqualTo(tooEarly);
        assertThat(pacing.held()).isZero();

        // Once the rest is waited, the claim meets admission again (at the door, as a caller it
        // verified before; through the filters, authentication first).
        TimeUnit.MILLISECONDS.sleep(rest);
        Api.Response again = claim(url, token, keptAlive);
        assertThat(again.status()).as(again.body()).isEqualTo(503);
        assertThat(again.json().get("type")).isEqualTo(OVERLOADED);
        assertThat(pacing.tooEarlyCount()).isEqualTo(tooEarly);
        assertThat(verified.verified(user)).isEqualTo(keptAlive ? 1 : 2);
      }
      HeldClaims.release("held-early-hold");
      assertThat(holder.get(60, TimeUnit.SECONDS).status()).isEqualTo(201);
    } finally {
      HeldClaims.release("held-early-hold");
      clients.shutdownNow();
    }
  }

  /** {@code flashclaim.admission.pacing.hold-too-soon} and {@code tolerance}, as by default. */
  private static final long HOLD_MS = 5_000;
  private static final long TOLERANCE_MS = 250;

  /** A claim of {@code held-early} on a kept-alive connection (the door's), or one closed after. */
  private static Api.Response claim(URI url, String token, boolean keptAlive) {
    if (keptAlive) {
      return Claimer.claim(url, "held-early", token, null);
    }
    return RawHttp.send(
        url,
        "POST",
        "/v1/campaigns/held-early/claims",
        List.of(new RawHttp.Header("Authorization", "Bearer " + token)),
        null);
  }
}
