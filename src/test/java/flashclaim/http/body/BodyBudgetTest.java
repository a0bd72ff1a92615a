package flashclaim.http.body;

import flashclaim.testing.Api;
import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.MultiInstanceTest;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.Tokens;
import flashclaim.testing.Webhooks;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shared byte budget of request bodies (G6), exactly, on every instance: a body that has not
 * arrived holds its reservation (its declared length, or the route's limit when chunked), a body
 * that does not fit is refused with 503 and Retry-After before it is read, each instance has its
 * own budget, and every reservation is returned when its answer leaves, whatever the answer.
 */
class BodyBudgetTest extends MultiInstanceTest {
  /** Room for exactly two webhook bodies of the largest size. */
  private static final int WEBHOOK_MAX = 16 * 1024;
  private static final int BUDGET = 2 * WEBHOOK_MAX;

  private final StoreBackend backend = new FirestoreBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }

  @Override
  protected Map<String, Object> instanceProperties() {
    return Map.of(
        "flashclaim.http.bodies.webhook-max-size", WEBHOOK_MAX,
        "flashclaim.http.bodies.shared-budget", BUDGET,
        "flashclaim.http.bodies.read-timeout", "60s");
  }

  @Test
  void bodiesThatHaveNotArrivedHoldTheBudgetUntilTheyAnswer() throws Exception {
    String campaign = newCampaign(1, 2);
    Map<String, String> before = backend.snapshot();
    URI first = instance(0);

    // Two chunked bodies that have not ended hold the whole budget of instance 0.
    List<Socket> open = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      open.add(startChunkedDelivery(first));
    }
    awaitBudget(0, 0);

    // Anything else with a body is refused there at once, whatever its size; not on the others.
    String delivery = Webhooks.body(campaign, campaign + "-0", "order-1", "redeemed");
    List<Api.Response> refused =
        runAll(
            12,
            i ->
                () ->
                    i % 2 == 0
                        ? Webhooks.deliver(first, delivery, "t=1,v1=00")
                        : Api.post(first, "/v1/campaigns/" + campaign + "/claims", Tokens.user("u" + i), "{}"));
    for (Api.Response response : refused) {
      assertThat(response.status()).as(response.toString()).isEqualTo(503);
      assertThat(response.header("Retry-After")).isNotNull();
      assertThat(response.json()).containsEntry("type", "urn:flashclaim:problem:overloaded");
    }
    assertThat(Webhooks.deliver(instance(1), delivery, "t=1,v1=00").status()).isEqualTo(401);
    assertThat(Webhooks.deliver(instance(2), delivery, "t=1,v1=00").status()).isEqualTo(401);
    // A declared length above the limit is refused before any budget is asked for.
    Api.Response tooLarge =
        Api.send(
            Api.request(first, Webhooks.PATH, null)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("x".repeat(WEBHOOK_MAX + 1)))
                .build());
    assertThat(tooLarge.status()).isEqualTo(413);

    // The held bodies end (one completes, one passes the limit): their reservations come back.
    assertThat(finishChunkedDelivery(open.get(0), "}")).as("complete, unsigned").isEqualTo(401);
    assertThat(finishChunkedDelivery(open.get(1), "x".repeat(WEBHOOK_MAX))).isEqualTo(413);
    awaitBudget(0, BUDGET);
    assertThat(Webhooks.deliver(first, delivery, "t=1,v1=00").status()).isEqualTo(401);
    for (int i = 0; i < INSTANCES; i++) {
      awaitBudget(i, BUDGET);
    }
    assertThat(backend.snapshot()).isEqualTo(before);
  }

  /** Opens a chunked webhook delivery and sends its first chunk, not its end. */
  private static Socket startChunkedDelivery(URI url) throws Exception {
    Socket socket = new Socket(url.getHost(), url.getPort());
    socket.setSoTimeout(60_000);
    OutputStream out = socket.getOutputStream();
    out.write(
        ("POST " + Webhooks.PATH + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n1\r\n{\r\n")
            .getBytes(StandardCharsets.US_ASCII));
    out.flush();
    return socket;
  }

  /** Sends the rest of a chunked delivery and reads the status of the answer. */
  private static int finishChunkedDelivery(Socket socket, String rest) throws Exception {
    try (socket) {
      OutputStream out = socket.getOutputStream();
      byte[] bytes = rest.getBytes(StandardCharsets.US_ASCII);
      out.write((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
      out.write(bytes);
      out.write("\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      byte[] head = new byte[12];
      int read = socket.getInputStream().readNBytes(head, 0, head.length);
      return Integer.parseInt(new String(head, 0, read, StandardCharsets.US_ASCII).substring(9, 12));
    }
  }

  private void awaitBudget(int instance, int bytes) throws InterruptedException {
    BodyLimitFilter filter = instances.get(instance).context().getBean(BodyLimitFilter.class);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (filter.budgetAvailable() != bytes) {
      assertThat(System.nanoTime()).as("budget of instance %s to be %s", instance, bytes).isLessThan(deadline);
      Thread.sleep(20);
    }
  }
}
