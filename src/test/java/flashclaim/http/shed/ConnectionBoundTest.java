package flashclaim.http.shed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import java.util.function.IntPredicate;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;

/**
 * G6 for connections: an instance holds at most {@code flashclaim.http.max-connections} open.
 * With that many open (here idle, as a stranger would hold them), a further connection is not
 * served until one of them closes, and then it is; the bound's meters count both. While the bound
 * is reached, an answer that leaves its connection owing nothing closes it ({@code
 * flashclaim.http.close-when-full}), which lets a waiting connection in.
 */
class ConnectionBoundTest {
  private static final int MAX = 8;

  @Test
  void atTheBoundANewConnectionWaitsUntilOneCloses() throws Exception {
    try (ServiceInstance service =
        ServiceInstance.start(
            Map.of(
                "flashclaim.http.max-connections", MAX,
                "flashclaim.http.close-when-full", false))) {
      ConnectionBound bound = service.context().getBean(ConnectionBound.class);
      List<Socket> held = new ArrayList<>();
      try {
        fillToTheBound(bound, service.url(), held);
        try (Socket unserved = waitingConnection(service.url())) {
          assertThat(bound.open()).as("not accepted while the bound is reached").isEqualTo(MAX);

          held.remove(0).close();
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
        assertThat(bound.closedWhenFull()).isZero();
      } finally {
        for (Socket socket : held) {
          socket.close();
        }
      }
    }
  }

  @Test
  void atTheBoundAnAnswerClosesItsConnectionAndLetsAWaitingOneIn() throws Exception {
    try (ServiceInstance service =
        ServiceInstance.start(Map.of("flashclaim.http.max-connections", MAX))) {
      ConnectionBound bound = service.context().getBean(ConnectionBound.class);
      List<Socket> held = new ArrayList<>();
      try {
        fillToTheBound(bound, service.url(), held);
        try (Socket unserved = waitingConnection(service.url())) {
          // a held connection asks again: its answer, written at the bound, closes it
          Socket asking = held.get(0);
          String answer = answerHead(asking);
          assertThat(answer).startsWith("HTTP/1.1 200").containsIgnoringCase("connection: close");
          assertThat(asking.getInputStream().read()).as("closed after its answer").isEqualTo(-1);

          unserved.setSoTimeout(10_000);
          assertThat(readAnswer(unserved))
              .as("accepted once the answered one closed")
              .startsWith("HTTP/1.1 200");
        }
        MeterRegistry meters = service.context().getBean(MeterRegistry.class);
        assertThat(bound.closedWhenFull()).isGreaterThanOrEqualTo(1);
        assertThat(
                meters.get("flashclaim.http.connections.closed.when.full").functionCounter().count())
            .isEqualTo(bound.closedWhenFull());
      } finally {
        for (Socket socket : held) {
          socket.close();
        }
      }
    }
  }

  /**
   * Opens connections until the instance holds the bound: answered once each while below it (an
   * answer written at the bound may close its connection), then some that send nothing, as a
   * stranger holds them.
   */
  private static void fillToTheBound(ConnectionBound bound, URI url, List<Socket> held)
      throws Exception {
    while (bound.open() < MAX - 1) {
      Socket socket = connect(url);
      held.add(socket);
      assertThat(liveness(socket)).startsWith("HTTP/1.1 200");
    }
    while (bound.open() < MAX) {
      int before = bound.open();
      held.add(connect(url));
      awaitAtLeast(() -> bound.open(), before + 1, Duration.ofSeconds(5));
    }
    assertThat(held).hasSize(MAX);
    assertThat(bound.pauses()).isEqualTo(1);
  }

  /** A connection the instance does not serve, its request sent: none is accepted past the bound. */
  private static Socket waitingConnection(URI url) throws IOException {
    Socket socket = connect(url);
    socket.setSoTimeout(1_500);
    send(socket);
    assertThatThrownBy(() -> readAnswer(socket))
        .as("served past the bound")
        .isInstanceOf(SocketTimeoutException.class);
    return socket;
  }

  /** Sends GET /health/liveness on the connection and reads the answer's head. */
  private static String answerHead(Socket socket) throws IOException {
    send(socket);
    return readHead(socket);
  }

  private static Socket connect(URI url) throws IOException {
    Socket socket = new Socket(url.getHost(), url.getPort());
    socket.setSoTimeout(10_000);
    return socket;
  }

  /** Sends GET /health/liveness on the connection, keeping it open, and reads the status line. */
  private static String liveness(Socket socket) throws IOException {
    send(socket);
    return readAnswer(socket);
  }

  private static void send(Socket socket) throws IOException {
    OutputStream out = socket.getOutputStream();
    out.write(
        "GET /health/liveness HTTP/1.1\r\nHost: localhost\r\n\r\n"
            .getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  /** The status line of the next answer, and the rest of its head and body read off. */
  private static String readAnswer(Socket socket) throws IOException {
    String head = readHead(socket);
    return head.substring(0, head.indexOf("\r\n"));
  }

  /** The head of the next answer, its body read off. */
  private static String readHead(Socket socket) throws IOException {
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
    return head.toString();
  }

  private static void awaitAtLeast(IntSupplier value, int least, Duration within)
      throws InterruptedException {
    assertThat(awaitValue(value, v -> v >= least, within)).isGreaterThanOrEqualTo(least);
  }

  private static void awaitAtMost(IntSupplier value, int most, Duration within)
      throws InterruptedException {
    assertThat(awaitValue(value, v -> v <= most, within)).isLessThanOrEqualTo(most);
  }

  /** {@code value} once it satisfies {@code reached}, or when {@code within} has passed. */
  private static int awaitValue(IntSupplier value, IntPredicate reached, Duration within)
      throws InterruptedException {
    long end = System.nanoTime() + within.toNanos();
    while (!reached.test(value.getAsInt()) && System.nanoTime() < end) {
      Thread.sleep(20);
    }
    return value.getAsInt();
  }
}
