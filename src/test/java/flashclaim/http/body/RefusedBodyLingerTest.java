package flashclaim.http.body;

import static flashclaim.testing.KeepAliveHttp.connect;
import static flashclaim.testing.KeepAliveHttp.liveness;
import static flashclaim.testing.KeepAliveHttp.readAnswer;
import static flashclaim.testing.KeepAliveHttp.write;
import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.ServiceInstance;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * G6 for a refused request whose body goes on arriving: the framework reads and drops the rest
 * to reach the next request, so without an end an endless body would hold its connection busy for
 * ever. Its connection is closed once {@code flashclaim.http.bodies.linger} has passed after the
 * refusal and the body has still not ended; a refused request whose body did end keeps its
 * connection for the next request. One instance with a linger of {@value #LINGER_MS} ms; the
 * requests carry no token, so they are refused (401) before anything reads their body.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RefusedBodyLingerTest {
  private static final long LINGER_MS = 1_000;
  private static final String CLAIM =
      "POST /v1/campaigns/linger/claims HTTP/1.1\r\nHost: localhost\r\n";

  private ServiceInstance service;
  private final ExecutorService sender = Executors.newSingleThreadExecutor();

  @BeforeAll
  void start() {
    service = ServiceInstance.start(Map.of("flashclaim.http.bodies.linger", LINGER_MS + "ms"));
  }

  @AfterAll
  void stop() {
    sender.shutdownNow();
    service.close();
  }

  @Test
  void aRefusedBodyThatKeepsArrivingHasItsConnectionClosedAfterTheLinger() throws Exception {
    try (Socket socket = connect(service.url())) {
      long sent = System.nanoTime(); // the refusal, and its linger, start after this
      write(socket, CLAIM + "Transfer-Encoding: chunked\r\n\r\n");
      Future<?> endless = sender.submit(() -> sendChunksUntilClosed(socket));
      assertThat(readAnswer(socket)).isEqualTo("HTTP/1.1 401 Unauthorized");

      assertThat(socket.getInputStream().read()).as("closed, nothing more written").isEqualTo(-1);
      assertThat(Duration.ofNanos(System.nanoTime() - sent))
          .as("not before the linger was over")
          .isGreaterThanOrEqualTo(Duration.ofMillis(LINGER_MS));
      endless.get(10, TimeUnit.SECONDS); // the sender saw its connection end
    }
  }

  @Test
  void aRefusedBodyThatEndedKeepsItsConnection() throws Exception {
    try (Socket socket = connect(service.url())) {
      write(socket, CLAIM + "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
      assertThat(readAnswer(socket)).isEqualTo("HTTP/1.1 401 Unauthorized");
      Thread.sleep(LINGER_MS * 2);
      assertThat(liveness(socket))
          .as("the next request, past the linger")
          .startsWith("HTTP/1.1 200 ");
    }
  }

  /** A chunk of a kilobyte every 20 ms, until the connection fails under it. */
  private static void sendChunksUntilClosed(Socket socket) {
    byte[] chunk = ("400\r\n" + "x".repeat(1024) + "\r\n").getBytes(StandardCharsets.US_ASCII);
    try {
      OutputStream out = socket.getOutputStream();
      while (true) {
        out.write(chunk);
        out.flush();
        Thread.sleep(20);
      }
    } catch (IOException closed) {
      // the instance closed the connection: what the test waits for
    } catch (InterruptedException stopped) {
      Thread.currentThread().interrupt();
    }
  }
}
