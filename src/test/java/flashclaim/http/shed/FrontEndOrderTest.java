package flashclaim.http.shed;

import static flashclaim.testing.Concurrently.awaitValue;
import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.admission.FairAdmission;
import flashclaim.testing.Api;
import flashclaim.testing.Claimer;
import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.HeldClaims;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.Tokens;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Behind a front end that stamps every request ({@code flashclaim.http.front-end-arrival-header}),
 * two instances of one claim slot each order claims by the front end's time, not by when they read
 * them: users whose requests the front end received earlier are served first although they were
 * read last; a user refused by a full instance keeps the front end's time in their ticket on the
 * other instance; requests without the header, with one that is no time, or with one older than
 * its maximum age count as arriving when read.
 */
class FrontEndOrderTest {
  private static final String HEADER = "X-Request-Start";
  private final StoreBackend store = new FirestoreBackend();

  @Test
  void claimsAreServedInTheOrderTheFrontEndReceivedThem() throws Exception {
    store.reset();
    ExecutorService clients = Executors.newFixedThreadPool(16);
    try (ServiceInstance a = start(0);
        ServiceInstance b = start(10)) {
      FairAdmission admissionB = b.context().getBean(FairAdmission.class);
      Api.createCampaign(a.url(), "fe", 1, 20);
      Api.createCampaign(a.url(), "fe-hold", 1, 5);
      HeldClaims.hold("fe-hold");
      Instant now = Instant.now();

      // received 25 s ago, past its deadline of 20 s: refused at once, with a ticket
      // instance A, its slot held and no room to wait, refuses a user received 12 s ago
      Future<Api.Response> holderA =
          clients.submit(() -> Claimer.claim(a.url(), "fe-hold", Tokens.user("fe-holder-a"), null));
      awaitValue(a.context().getBean(FairAdmission.class)::inFlight, 1);
      Api.Response stale = claim(a.url(), "stale", "t=" + now.minusSeconds(12).toEpochMilli());
      assertThat(stale.status()).as(stale.body()).isEqualTo(503);
      assertThat(stale.json().get("type")).isEqualTo("urn:flashclaim:problem:overloaded");
      String ticket = stale.header(Claimer.TICKET);
      assertThat(ticket).isNotBlank();

      Future<Api.Response> holder =
          clients.submit(
              () ->
                  Claimer.claim(b.url(), "fe-hold", Tokens.user("fe-holder"), null));
      awaitValue(admissionB::inFlight, 1);
      Map<String, Future<Api.Response>> waiting = new LinkedHashMap<>();
      Map<String, String> stamps = new LinkedHashMap<>();
      stamps.put("late-1", "t=" + now.minusSeconds(10).toEpochMilli());
      stamps.put("late-2", "t=" + BigDecimal.valueOf(now.minusSeconds(9).toEpochMilli(), 3)); // s
      stamps.put("late-3", "t=" + now.minusSeconds(8).toEpochMilli() * 1000); // microseconds
      stamps.put("unstamped", null);
      stamps.put("garbage", "t=soon");
      stamps.put("too-old", "t=" + now.minusSeconds(31).toEpochMilli());
      stamps.put("early", "t=" + now.minusSeconds(11).toEpochMilli());
      stamps.put("stale", null); // the retry, with its ticket
      for (Map.Entry<String, String> user : stamps.entrySet()) {
        String name = user.getKey();
        waiting.put(
            name,
            clients.submit(
                () ->
                    name.equals("stale")
                        ? Claimer.claim(b.url(), "fe", Tokens.user(name), ticket)
                        : claim(b.url(), name, user.getValue())));
        awaitValue(admissionB::queued, waiting.size());
      }

      HeldClaims.release("fe-hold");
      assertThat(holder.get(60, TimeUnit.SECONDS).status()).isEqualTo(201);
      assertThat(holderA.get(60, TimeUnit.SECONDS).status()).isEqualTo(201);
      Map<String, String> userOfCode = new HashMap<>();
      for (Map.Entry<String, Future<Api.Response>> e : waiting.entrySet()) {
        Api.Response answer = e.getValue().get(60, TimeUnit.SECONDS);
        assertThat(answer.status()).as(e.getKey() + ": " + answer.body()).isEqualTo(201);
        userOfCode.put((String) answer.json().get("code"), e.getKey());
      }
      List<String> served = new ArrayList<>();
      HeldClaims.served("fe").forEach(code -> served.add(userOfCode.get(code)));
      assertThat(served)
          .containsExactly(
              "stale", "early", "late-1", "late-2", "late-3", "unstamped", "garbage", "too-old");
      assertThat(store.claims("fe")).hasSize(8);
      assertThat(admissionB.queued()).isZero();
    } finally {
      HeldClaims.release("fe-hold");
      clients.shutdownNow();
    }
  }

  /** An instance behind the front end: one claim slot, room for {@code maxQueued} to wait. */
  private static ServiceInstance start(int maxQueued) {
    return ServiceInstance.start(
        Map.of(
            HeldClaims.PROPERTY, "true",
            "flashclaim.http.front-end-arrival-header", HEADER,
            "flashclaim.admission.limit", "fixed",
            "flashclaim.admission.initial-limit", 1,
            "flashclaim.admission.max-queued", maxQueued,
            "flashclaim.admission.max-wait", "20s",
            "flashclaim.claim.deadline", "20s",
            "flashclaim.firestore.call-timeout", "15s"));
  }

  /** A claim of campaign {@code fe} by {@code user}, with the front end's header if not null. */
  private static Api.Response claim(URI base, String user, String frontEndTime) {
    HttpRequest.Builder request =
        Api.request(base, "/v1/campaigns/fe/claims", Tokens.user(user))
            .timeout(Duration.ofSeconds(60))
            .POST(HttpRequest.BodyPublishers.noBody());
    if (frontEndTime != null) {
      request.header(HEADER, frontEndTime);
    }
    return Api.send(request.build());
  }
}
