package flashclaim.http.claim;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.admission.FairAdmission;
import flashclaim.testing.Api;
import flashclaim.testing.Claimer;
import flashclaim.testing.CountedTokens;
import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.HeldClaims;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.Tokens;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The claim door answers, before the framework, the refusals it knows for verified callers, with
 * the pipeline's answers, and lets everything else through. One instance with one claim slot held
 * by a claim of another campaign and no room to wait, pacing off (so that a refused caller may come
 * back at once) and no appointment book:
 *
 * <ul>
 *   <li>a claim with a body is refused 503 by the pipeline; the same caller's claims without one
 *       are refused 503 at the door, with the same problem, a ticket that keeps its first arrival,
 *       and the request id it sent;
 *   <li>the door verifies a token that neither it nor the edge verified before with the
 *       framework's validators, once, and remembers its caller;
 *   <li>strangers (forged, altered or no tokens), claims with a body, odd spellings of the path,
 *       and a claim pipelined behind an unanswered request go through the pipeline;
 *   <li>a known caller's claim on a campaign not open is answered 403 at the door;
 *   <li>one on a pool proven empty is held at the door, without a thread, until the shared read of
 *       the pool's additions confirms the proof, and answered 410 there, with what its connection
 *       sent meanwhile answered after it.
 * </ul>
 */
class ClaimDoorTest {
  private static final String OVERLOADED = "urn:flashclaim:problem:overloaded";

  @Test
  void knownCallersAreRefusedAtTheDoorAsThePipelineWouldAndEverythingElsePasses() throws Exception {
    new FirestoreBackend().reset();
    ExecutorService clients = Executors.newFixedThreadPool(2);
    try (ServiceInstance one =
        HeldClaims.oneSlot(
            Map.of(
                "flashclaim.admission.pacing.enabled", "false",
                // no appointment book: a free slot admits a new user, whatever was told before
                "flashclaim.admission.appointments", "false"))) {
      URI url = one.url();
      CountedTokens<?> verified = one.context().getBean(CountedTokens.class);
      ClaimDoor door = one.context().getBean(ClaimDoor.class);
      Api.createCampaign(url, "door", 1, 10);
      Api.createCampaign(url, "door-empty", 1, 1);
      Api.createCampaign(url, "door-later", 1, 1, Instant.now().plusSeconds(3600), null);
      Future<Api.Response> holder =
          HeldClaims.holdTheSlot(one, clients, "door-hold", "door-holder");

      String token = Tokens.user("knocker");
      // With a body (ignored by the route), the claim goes through the pipeline: its answer is
      // what the door's must be.
      Api.Response first =
          Api.send(
              Api.request(url, "/v1/campaigns/door/claims", token)
                  .POST(HttpRequest.BodyPublishers.ofString("{}"))
                  .build());
      assertThat(first.status()).as(first.body()).isEqualTo(503);
      assertThat(verified.verified("knocker")).isEqualTo(1);
      assertThat(door.answered(503)).isZero();
      String ticket = first.header(Claimer.TICKET);

      // Without a body, with its ticket and a request id: refused at the door, as the pipeline did.
      Api.Response again =
          Api.send(
              claim(url, "/v1/campaigns/door/claims", token)
                  .header(Claimer.TICKET, ticket)
                  .header("X-Request-Id", "door-test-1")
                  .build());
      assertThat(again.status()).as(again.body()).isEqualTo(503);
      assertThat(door.answered(503)).isEqualTo(1);
      assertThat(again.json()).isEqualTo(first.json());
      assertThat(again.json().get("type")).isEqualTo(OVERLOADED);
      assertThat(again.contentType()).isEqualTo(first.contentType());
      assertThat(again.header("X-Request-Id")).isEqualTo("door-test-1");
      assertThat(Long.parseLong(again.header("Flashclaim-Retry-After-Ms"))).isPositive();
      assertThat(Long.parseLong(again.header("Retry-After"))).isPositive();
      assertThat(headerNames(again)).isEqualTo(headerNames(first));
      // the ticket sent back keeps its first arrival: the same ticket comes back
      assertThat(again.header(Claimer.TICKET)).isEqualTo(ticket);
      // The claim edge remembered the caller it verified: the door does not verify it again.
      assertThat(verified.verified("knocker")).isEqualTo(1);
      Api.Response withoutTicket = Claimer.claim(url, "door", token, null);
      assertThat(withoutTicket.status()).isEqualTo(503);
      assertThat(withoutTicket.header(Claimer.TICKET)).isNotBlank();
      assertThat(door.answered(503)).isEqualTo(2);
      assertThat(verified.verified("knocker")).isEqualTo(1);

      // A new caller's first claim is verified at the door, once, and refused there.
      String newcomer = Tokens.user("door-new");
      assertThat(Claimer.claim(url, "door", newcomer, null).status()).isEqualTo(503);
      assertThat(verified.verified("door-new")).isEqualTo(1);
      assertThat(door.answered(503)).isEqualTo(3);
      assertThat(Claimer.claim(url, "door", newcomer, null).status()).isEqualTo(503);
      assertThat(verified.verified("door-new")).isEqualTo(1);
      assertThat(door.answered(503)).isEqualTo(4);

      // Strangers meet authentication, each time: none remembered, none refused at the door.
      String forged =
          Tokens.mint("knocker", List.of(), Duration.ofHours(1), "another-secret-0123456789abcdef-xyz");
      String altered = token.substring(0, token.length() - 2) + (token.endsWith("A") ? "BB" : "AA");
      for (String bad : List.of(forged, altered, "garbage", forged)) {
        Api.Response refused = Claimer.claim(url, "door", bad, null);
        assertThat(refused.status()).as(refused.body()).isEqualTo(401);
      }
      assertThat(Api.send(claim(url, "/v1/campaigns/door/claims", null).build()).status())
          .isEqualTo(401);
      assertThat(door.answered(503)).isEqualTo(4);

      // Odd spellings of a known caller's claim, each the first request on its connection: none
      // is answered at the door; the pipeline answers each with 4xx, or 503 as any claim now.
      String odder = Tokens.user("door-odd");
      Api.Response known = // with a body: through the pipeline, whose edge remembers the caller
          Api.send(
              Api.request(url, "/v1/campaigns/door/claims", odder)
                  .POST(HttpRequest.BodyPublishers.ofString("{}"))
                  .build());
      assertThat(known.status()).isEqualTo(503);
      String auth = "\r\nAuthorization: Bearer " + odder;
      String end = "\r\n\r\n";
      String closing = "GET /v1/campaigns/door HTTP/1.1\r\nHost: x\r\nConnection: close" + end;
      for (String odd :
          List.of(
              "post /v1/campaigns/door/claims HTTP/1.1\r\nHost: x" + auth + end,
              "POST /v1/campaigns/door/claims HTTP/1.1\r\nHost: x\r\nAuthorization: bearer "
                  + odder
                  + end,
              "POST /v1/campaigns/door/claims HTTP/1.1\r\nHost: x" + auth + auth + end,
              "POST /v1/campaigns/door/claims HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer  "
                  + odder
                  + end,
              "POST /v1/campaigns/door/claims/ HTTP/1.1\r\nHost: x" + auth + end,
              "POST /v1/campaigns/d%6Fr/claims HTTP/1.1\r\nHost: x" + auth + end,
              "POST /v1/campaigns/../claims HTTP/1.1\r\nHost: x" + auth + end,
              "POST http://x/v1/campaigns/door/claims HTTP/1.1\r\nHost: x" + auth + end,
              "POST /v1/campaigns/door/claims?a=b HTTP/1.1\r\nHost: x" + auth + end,
              "POST /v1/campaigns/door/claims HTTP/1.1\r\nHost: x\r\nContent-Length: 1"
                  + auth
                  + end
                  + "x",
              "POST /v1/campaigns/door/claims HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked"
                  + auth
                  + end
                  + "0"
                  + end)) {
        List<Integer> answers = pipelined(url, odd + closing, 2);
        assertThat(answers.get(0)).as(odd).isBetween(400, 503).isNotEqualTo(500);
      }
      List<Integer> http10 =
          pipelined(url, "POST /v1/campaigns/door/claims HTTP/1.0\r\nHost: x" + auth + "\r\n\r\n", 1);
      assertThat(http10.get(0)).isBetween(400, 503).isNotEqualTo(500);
      assertThat(door.answered(503)).isEqualTo(4);

      // The same caller for another campaign is not known there: its token is verified again (an
      // unknown campaign's claim is refused at once as any other: admission comes before the
      // store). Claims with a body, or another spelling of the path, go through the pipeline.
      Api.Response elsewhere = Claimer.claim(url, "door-elsewhere", token, null);
      assertThat(elsewhere.status()).as(elsewhere.body()).isEqualTo(503);
      assertThat(verified.verified("knocker")).isEqualTo(2);
      assertThat(door.answered(503)).isEqualTo(5);
      Api.Response withBody =
          Api.send(
              Api.request(url, "/v1/campaigns/door/claims", token)
                  .POST(HttpRequest.BodyPublishers.ofString("{}"))
                  .build());
      assertThat(withBody.status()).isEqualTo(503);
      Api.Response withQuery =
          Api.send(claim(url, "/v1/campaigns/door/claims?x=1", token).build());
      assertThat(withQuery.status()).isEqualTo(503);
      assertThat(verified.verified("knocker")).isEqualTo(4);
      assertThat(door.answered(503)).isEqualTo(5);

      // A claim pipelined behind a request still unanswered goes through the pipeline, and the
      // answers come in the order of the requests.
      List<Integer> statuses =
          pipelined(
              url,
              "GET /v1/campaigns/door/claims/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                  + token
                  + "\r\n\r\n"
                  + "POST /v1/campaigns/door/claims HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                  + token
                  + "\r\nContent-Length: 0\r\n\r\n"
                  + "POST /v1/campaigns/door/claims HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                  + token
                  + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
              3);
      assertThat(statuses).containsExactly(200, 503, 503);
      assertThat(door.answered(503)).isEqualTo(5);

      HeldClaims.release("door-hold");
      assertThat(holder.get(60, TimeUnit.SECONDS).status()).isEqualTo(201);

      // Served once a slot is free: the door lets it through to admission and the store.
      Api.Response served = Claimer.claim(url, "door", token, ticket);
      assertThat(served.status()).as(served.body()).isEqualTo(201);
      HeldClaims.awaitInFlight(one.context().getBean(FairAdmission.class), 0);

      // A campaign not open yet: once this instance holds it, a known caller's claim is answered
      // 403 at the door, as the edge answered it.
      String late = Tokens.user("door-late");
      Api.Response notOpen = Claimer.claim(url, "door-later", late, null);
      assertThat(notOpen.status()).as(notOpen.body()).isEqualTo(403);
      for (int i = 0; i < 3; i++) {
        Api.Response again403 = Claimer.claim(url, "door-later", late, null);
        assertThat(again403.status()).isEqualTo(403);
        assertThat(again403.json()).isEqualTo(notOpen.json());
      }
      assertThat(door.answered(403)).isPositive();
      assertThat(verified.verified("door-late")).isLessThan(4);

      // A pool proven empty: the first claims find it empty in the store, through the pipeline,
      // until this instance holds a proof (a read of the pool's additions, then a query that finds
      // none); from then on the claims are held at the door until the shared read of the additions
      // confirms the proof, and answered 410 there.
      assertThat(Claimer.claim(url, "door-empty", Tokens.user("door-first"), null).status())
          .isEqualTo(201);
      // (its slot is given back just after its answer leaves)
      FairAdmission slots = one.context().getBean(FairAdmission.class);
      HeldClaims.awaitInFlight(slots, 0);
      String empty = Tokens.user("door-empty");
      Api.Response soldOut = Claimer.claim(url, "door-empty", empty, null);
      assertThat(soldOut.status()).as(soldOut.body()).isEqualTo(410);
      for (int i = 0; i < 5 && door.answered(410) == 0; i++) {
        HeldClaims.awaitInFlight(slots, 0); // the one slot of the claim before, given back
        Api.Response again410 = Claimer.claim(url, "door-empty", empty, null);
        assertThat(again410.status()).as(again410.body()).isEqualTo(410);
        assertThat(again410.json()).isEqualTo(soldOut.json());
      }
      assertThat(door.answered(410)).isEqualTo(1);
      Api.Response atTheDoor = Claimer.claim(url, "door-empty", empty, null);
      assertThat(atTheDoor.status()).isEqualTo(410);
      assertThat(atTheDoor.json()).isEqualTo(soldOut.json());
      assertThat(door.answered(410)).isEqualTo(2);
      // What a connection sends while a claim is held waits behind it, and is answered after it.
      assertThat(
              pipelined(
                  url,
                  "POST /v1/campaigns/door-empty/claims HTTP/1.1\r\nHost: x\r\nAuthorization:"
                      + " Bearer "
                      + empty
                      + "\r\nContent-Length: 0\r\n\r\n"
                      + "GET /v1/campaigns/door-empty/claims/me HTTP/1.1\r\nHost: x\r\n"
                      + "Authorization: Bearer "
                      + empty
                      + "\r\nConnection: close\r\n\r\n",
                  2))
          .containsExactly(410, 200);
      assertThat(door.answered(410)).isEqualTo(3);
      assertThat(Api.get(url, "/prometheus", null).body().lines())
          .contains("flashclaim_http_door_answers_total{status=\"503\"} 5.0");
    } finally {
      HeldClaims.release("door-hold");
      clients.shutdownNow();
    }
  }

  private static HttpRequest.Builder claim(URI url, String path, String token) {
    return Api.request(url, path, token).POST(HttpRequest.BodyPublishers.noBody());
  }

  private static List<String> headerNames(Api.Response response) {
    return response.headers().keySet().stream()
        .map(String::toLowerCase)
        .filter(name -> !name.equals("date"))
        .sorted()
        .toList();
  }

  /** Writes {@code requests} on one connection at once and reads the statuses of the answers. */
  private static List<Integer> pipelined(URI url, String requests, int answers) throws Exception {
    try (Socket socket = new Socket(url.getHost(), url.getPort())) {
      socket.setSoTimeout(30_000);
      OutputStream out = socket.getOutputStream();
      out.write(requests.getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream read = new ByteArrayOutputStream();
      byte[] buffer = new byte[8192];
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        read.write(buffer, 0, n);
      }
      Matcher status =
          Pattern.compile("HTTP/1\\.[01] (\\d{3}) ").matcher(read.toString(StandardCharsets.US_ASCII));
      List<Integer> statuses = new java.util.ArrayList<>();
      while (status.find()) {
        statuses.add(Integer.parseInt(status.group(1)));
      }
      assertThat(statuses).hasSize(answers);
      return statuses;
    }
  }
}
