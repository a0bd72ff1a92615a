package flashclaim.http.shed;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.ServiceInstance;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;

/**
 * G6 for connections: an instance holds at most {@code flashclaim.http.max-connections} open.
 * With that many open (here idle, as a stranger would hold them), a further connection is not
 * served until one of them closes, and then it is; the bound's meters count both.
 */
class ConnectionBoundTest {
  private static final int MAX = 8;

  @Test
  void atTheBoundANewConnectionWaitsUntilOneCloses() throws Exception {
    try (ServiceInstance service =
        ServiceInstance.start(Map.of("flashclaim.http.max-connections", MAX))) {
      ConnectionBound bound = service.context().getBean(ConnectionBound.class);
      URI url = service.url();
      List<Socket> held = new ArrayList<>();
      try {
        // idle connections, each answered once, until the instance holds the bound
        while (bound.open() < MAX) {
          Socket socket = connect(url);
          held.add(socket);
          assertThat(liveness(socket)).startsWith("HTTP/1.1 200");
        }
        assertThat(held).hasSizeLessThanOrEqualTo(MAX);
        assertThat(bound.pauses()).isEqualTo(1);

        // the listening socket is paused on its own event loop: a connection that came in the
        // accept round that reached the bound may still be served; one after it is not
        Socket waiting = null;
        while (waiting == null) {
          Socket socket = connect(url);
          socket.setSoTimeout(1_500);
          try {
            assertThat(liveness(socket)).startsWith("HTTP/1.1 200");
            held.add(socket);
            assertThat(held.size() - MAX)
                .as("accepted past the bound, in the accept round that reached it")
                .isLessThanOrEqualTo(16);
          } catch (SocketTimeoutException notServed) {
            waiting = socket;
          }
        }
        try (Socket unserved = waiting) {
          assertThat(bound.open()).as("not accepted while the bound is reached").isEqualTo(held.size());

          while (held.size() >= MAX) {
            held.remove(0).close();
          }
          unserved.setSoTimeout(10_000);
          assertThat(readAnswer(unserved))
              .as("accepted once the open ones fell below the bound")
              .startsWith("HTTP/1.1 200");
        }
        awaitAtMost(() -> bound.open(), MAX - 1, Duration.ofSeconds(5));
        MeterRegistry meters = service.context().getBean(MeterRegistry.class);
        assertThat(meters.get("flashclaim.http.connections").gauge().value())
            .isEqualTo(bound.open());
        assertThat(meters.get("flashclaim.http.connection.bound.reached").functionCounter().count())
            .as("reached again when the waiting connection was accepted")
            .isEqualTo(2);
      } finally {
        for (Socket socket : held) {
          socket.close();
        }
      }
    }
  }

  private static Socket connect(URI url) throws IOException {
    Socket socket = new Socket(url.getHost(), url.getPort());
    socket.setSoTimeout(10_000);
    return socket;
  }

  /** Sends GET /health/liveness on the connection, keeping it open, and reads the status line. */
  private static String liveness(Socket socket) throws IOException {
    OutputStream out = socket.getOutputStream();
    out.write(
        "GET /health/liveness HTTP/1.1\r\nHost: localhost\r\n\r\n"
            .getBytes(StandardCharsets.US_ASCII));
    out.flush();
    return readAnswer(socket);
  }

  /** The status line of the next answer, and the rest of its head and body read off. */
  private static String readAnswer(Socket socket) throws IOException {
    InputStream in = socket.getInputStream();
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("closed after " + head);
      }
      head.append((char) b);
    }
    int length = 0;
    for (String line : head.toString().split("\r\n")) {
      if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
        length = Integer.parseInt(line.substring(15).trim());
      }
    }
    in.readNBytes(length);
    return head.substring(0, head.indexOf("\r\n"));
  }

  private static void awaitAtMost(IntSupplier value, int most, Duration within)
      throws InterruptedException {
    long end = System.nanoTime() + within.toNanos();
    while (value.getAsInt() > most && System.nanoTime() < end) {
      Thread.sleep(20);
    }
    assertThat(value.getAsInt()).isLessThanOrEqualTo(most);
  }
}
