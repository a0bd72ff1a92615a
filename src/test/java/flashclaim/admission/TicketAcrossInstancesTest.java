package flashclaim.admission;

import static flashclaim.testing.Concurrently.awaitValue;
import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.Api;
import flashclaim.testing.Claimer;
import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.HeldClaims;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.Tokens;
import java.net.URI;
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
 * G7 across instances, deterministic: each instance runs one claim at a time (a fixed limit of 1)
 * and that slot is held by a claim of another campaign until the test lets it go. Instance A has no
 * room to wait, so it refuses user {@code early} with a ticket; instance B queues five later users,
 * then {@code early}'s retry with the ticket, and users who send a ticket that is not theirs. B
 * serves {@code early} first, then the others by their arrival: a stolen or tampered ticket counts
 * as arriving now.
 */
class TicketAcrossInstancesTest {
  private static final String TICKET = Claimer.TICKET;
  private final StoreBackend store = new FirestoreBackend();

  @Test
  void aUserRefusedByOneInstanceIsServedByAnotherBeforeLaterArrivals() throws Exception {
    store.reset();
    ExecutorService clients = Executors.newFixedThreadPool(16);
    try (ServiceInstance a = start(0);
        ServiceInstance b = start(10)) {
      FairAdmission admissionA = a.context().getBean(FairAdmission.class);
      FairAdmission admissionB = b.context().getBean(FairAdmission.class);
      Api.createCampaign(a.url(), "fair", 1, 20);
      Api.createCampaign(a.url(), "hold", 1, 5);
      HeldClaims.hold("hold");

      Future<Api.Response> holderA = clients.submit(() -> claim(a.url(), "hold", "holder-a", null));
      awaitValue(admissionA::inFlight, 1);
      Api.Response refused = claim(a.url(), "fair", "early", null);
      assertThat(refused.status()).as(refused.body()).isEqualTo(503);
      assertThat(refused.json().get("type")).isEqualTo("urn:flashclaim:problem:overloaded");
      assertThat(refused.header("Retry-After")).matches("[1-9][0-9]*");
      String ticket = refused.header(TICKET);
      assertThat(ticket).isNotBlank();

      Future<Api.Response> holderB = clients.submit(() -> claim(b.url(), "hold", "holder-b", null));
      awaitValue(admissionB::inFlight, 1);
      Map<String, Future<Api.Response>> waiting = new LinkedHashMap<>();
      List<String> sendOrder = new ArrayList<>();
      for (int i = 1; i <= 5; i++) {
        sendOrder.add("late-" + i);
      }
      sendOrder.add("thief"); // sends early's ticket as their own
      sendOrder.add("forger"); // sends early's ticket with its arrival changed
      sendOrder.add("early"); // the retry, with the ticket A gave
      String forged = tamperArrival(ticket);
      for (String user : sendOrder) {
        String sent =
            switch (user) {
              case "thief", "early" -> ticket;
              case "forger" -> forged;
              default -> null;
            };
        waiting.put(user, clients.submit(() -> claim(b.url(), "fair", user, sent)));
        awaitValue(admissionB::queued, waiting.size());
      }

      HeldClaims.release("hold");
      assertThat(holderA.get(60, TimeUnit.SECONDS).status()).isEqualTo(201);
      assertThat(holderB.get(60, TimeUnit.SECONDS).status()).isEqualTo(201);
      Map<String, String> userOfCode = new HashMap<>();
      for (Map.Entry<String, Future<Api.Response>> e : waiting.entrySet()) {
        Api.Response answer = e.getValue().get(60, TimeUnit.SECONDS);
        assertThat(answer.status()).as(e.getKey() + ": " + answer.body()).isEqualTo(201);
        userOfCode.put((String) answer.json().get("code"), e.getKey());
      }
      List<String> servedOrder =
          HeldClaims.served("fair").stream().map(userOfCode::get).toList();
      assertThat(servedOrder)
          .containsExactly("early", "late-1", "late-2", "late-3", "late-4", "late-5", "thief", "forger");
      assertThat(store.coupons("fair").stream().filter(StoreBackend.StoredCoupon::assigned))
          .hasSize(8);
      assertThat(store.claims("fair")).hasSize(8);
      assertThat(admissionB.inFlight()).isZero();
      assertThat(admissionB.queued()).isZero();
    } finally {
      HeldClaims.release("hold");
      clients.shutdownNow();
    }
  }

  /**
   * A turn beyond {@code max-retry-after} travels in the ticket to another instance. Instance A
   * measured one claim that held its slot 5 s, so its book gives new users turns about 4 s apart:
   * user {@code early} is refused, told A's longest Retry-After (1 s here) and, in the ticket, the
   * turn itself. Instance B has never seen {@code early} and has a free slot (a new user is served
   * at once; the fleet order is off, so nothing but the ticket tells B of A's book), yet it refuses
   * {@code early}'s retry before that turn at once, without a slot, told the rest of the wait and
   * the same turn and first arrival in the new ticket. After the turn, B serves {@code early}.
   * ({@code early-when-idle} is off here: on, as by default, B's free slot would serve {@code
   * early} at once, nobody else being due; {@code FairAdmissionTest} shows that.)
   */
  @Test
  void aTurnBeyondTheLongestRetryAfterTravelsInTheTicket() throws Exception {
    store.reset();
    ExecutorService clients = Executors.newFixedThreadPool(2);
    try (ServiceInstance a = startWithShortRetryAfter();
        ServiceInstance b = startWithShortRetryAfter()) {
      FairAdmission admissionA = a.context().getBean(FairAdmission.class);
      FairAdmission admissionB = b.context().getBean(FairAdmission.class);
      TicketCodec codec = a.context().getBean(TicketCodec.class);
      Api.createCampaign(a.url(), "turns", 1, 5);
      Api.createCampaign(a.url(), "hold", 1, 1);
      HeldClaims.hold("hold");
      Future<Api.Response> holder = clients.submit(() -> claim(a.url(), "hold", "holder", null));
      awaitValue(admissionA::inFlight, 1);
      Thread.sleep(5_000);
      HeldClaims.release("hold");
      assertThat(holder.get(60, TimeUnit.SECONDS).status()).isEqualTo(201);
      awaitValue(admissionA::inFlight, 0);

      Instant sent = Instant.now();
      Api.Response atA = claim(a.url(), "turns", "early", null);
      assertThat(atA.status()).as(atA.body()).isEqualTo(503);
      assertThat(atA.header("Retry-After")).isEqualTo("1");
      Ticket fromA = codec.decode(atA.header(TICKET), "turns", "early").orElseThrow();
      assertThat(fromA.turn()).as("the turn, beyond max-retry-after").isAfter(sent.plusSeconds(2));

      long refusedByB = admissionB.refused(FairAdmission.Reason.DEADLINE);
      Api.Response atB = claim(b.url(), "turns", "early", atA.header(TICKET));
      Instant answered = Instant.now();
      assertThat(atB.status()).as(atB.body()).isEqualTo(503);
      assertThat(Long.parseLong(atB.header("Flashclaim-Retry-After-Ms"))).isBetween(1L, 1_000L);
      assertThat(admissionB.refused(FairAdmission.Reason.DEADLINE)).isEqualTo(refusedByB + 1);
      Ticket fromB = codec.decode(atB.header(TICKET), "turns", "early").orElseThrow();
      assertThat(fromB.firstArrival()).isEqualTo(fromA.firstArrival());
      if (fromA.turn().isAfter(answered.plusSeconds(1))) {
        assertThat(fromB.turn()).isEqualTo(fromA.turn()); // the rest still beyond 1 s
      }
      assertThat(store.claims("turns")).isEmpty();

      Api.Response newcomer = claim(b.url(), "turns", "newcomer", null);
      assertThat(newcomer.status()).as("B has a free slot: " + newcomer.body()).isEqualTo(201);

      Thread.sleep(Math.max(0, Duration.between(Instant.now(), fromA.turn()).toMillis()) + 100);
      Api.Response served = claim(b.url(), "turns", "early", atB.header(TICKET));
      assertThat(served.status()).as(served.body()).isEqualTo(201);
      assertThat(store.claims("turns"))
          .extracting(StoreBackend.StoredClaim::code)
          .containsExactlyInAnyOrder(
              (String) newcomer.json().get("code"), (String) served.json().get("code"));
      assertThat(store.coupons("turns").stream().filter(StoreBackend.StoredCoupon::assigned))
          .hasSize(2);
    } finally {
      HeldClaims.release("hold");
      clients.shutdownNow();
    }
  }

  /**
   * G8: whatever a client sends as its ticket (empty, garbage, huge, twice, another user's) is at
   * worst ignored: the claim is served (201, then 200 when repeated), never answered 5xx other
   * than a 503 to retry (a slow store on a loaded machine), which carries Retry-After and a ticket,
   * or a 429 to a retry sooner than that, which carries Retry-After.
   */
  @Test
  void anyTicketHeaderIsHarmless() throws InterruptedException {
    store.reset();
    try (ServiceInstance one = ServiceInstance.start(Map.of("flashclaim.claim.deadline", "20s"))) {
      Api.createCampaign(one.url(), "odd", 1, 20);
      TicketCodec codec = one.context().getBean(TicketCodec.class);
      String othersTicket = codec.encode("odd", "someone-else", codec.first(java.time.Instant.now()));
      List<List<String>> sent =
          List.of(
              List.of(""),
              List.of("garbage"),
              List.of("1.."),
              List.of("2." + "A".repeat(22) + "." + "A".repeat(43)),
              List.of("x".repeat(4_000)),
              List.of(othersTicket),
              List.of(othersTicket, othersTicket),
              List.of("1.%00.%ff", "\t"));
      for (int i = 0; i < sent.size(); i++) {
        for (int expected : new int[] {201, 200}) {
          java.net.http.HttpRequest.Builder request =
              Api.request(one.url(), "/v1/campaigns/odd/claims", Tokens.user("odd-" + i))
                  .POST(java.net.http.HttpRequest.BodyPublishers.noBody());
          sent.get(i).forEach(value -> request.header(TICKET, value));
          Api.Response answer = Api.send(request.build());
          for (int retry = 0; (answer.status() == 503 || answer.status() == 429) && retry < 100; retry++) {
            assertThat(answer.header("Retry-After")).as(answer.toString()).isNotNull();
            if (answer.status() == 503) {
              assertThat(answer.header(TICKET)).as(answer.toString()).isNotNull();
            }
            Thread.sleep(100);
            answer = Api.send(request.build());
          }
          assertThat(answer.status()).as(sent.get(i) + ": " + answer.body()).isEqualTo(expected);
        }
      }
      assertThat(store.claims("odd")).hasSize(sent.size());
    }
  }

  /**
   * An instance with one claim slot, room for {@code maxQueued} waiting claims, slow deadlines and
   * waits as long as them.
   */
  private static ServiceInstance start(int maxQueued) {
    return ServiceInstance.start(
        Map.of(
            HeldClaims.PROPERTY, "true",
            "flashclaim.admission.limit", "fixed",
            "flashclaim.admission.initial-limit", 1,
            "flashclaim.admission.max-queued", maxQueued,
            "flashclaim.admission.max-wait", "60s",
            "flashclaim.claim.deadline", "60s",
            "flashclaim.firestore.call-timeout", "30s"));
  }

  /**
   * An instance with one claim slot, no room to wait, a longest Retry-After of 1 s and turns up to a
   * minute ahead, without the fleet order: what one instance tells another travels only in tickets.
   */
  private static ServiceInstance startWithShortRetryAfter() {
    return ServiceInstance.start(
        Map.of(
            HeldClaims.PROPERTY, "true",
            "flashclaim.admission.limit", "fixed",
            "flashclaim.admission.initial-limit", 1,
            "flashclaim.admission.max-queued", 0,
            "flashclaim.admission.max-retry-after", "1s",
            "flashclaim.admission.max-turn", "1m",
            "flashclaim.admission.fleet.enabled", "false",
            "flashclaim.admission.early-when-idle", "false",
            "flashclaim.claim.deadline", "60s",
            "flashclaim.firestore.call-timeout", "30s"));
  }

  private static Api.Response claim(URI base, String campaign, String user, String ticket) {
    return Claimer.claim(base, campaign, Tokens.user(user), ticket);
  }

  /** The ticket with one bit of its arrival flipped: the MAC no longer matches. */
  private static String tamperArrival(String ticket) {
    String[] parts = ticket.split("\\.");
    byte[] payload = java.util.Base64.getUrlDecoder().decode(parts[1]);
    payload[7] ^= 1;
    return parts[0]
        + "."
        + java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(payload)
        + "."
        + parts[2];
  }
}
