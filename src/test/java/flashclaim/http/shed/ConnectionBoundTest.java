package flashclaim.http.shed;

import static flashclaim.testing.KeepAliveHttp.awaitAtMost;
import static flashclaim.testing.KeepAliveHttp.connect;
import static flashclaim.testing.KeepAliveHttp.liveness;
import static flashclaim.testing.KeepAliveHttp.readAnswer;
import static flashclaim.testing.KeepAliveHttp.readHead;
import static flashclaim.testing.KeepAliveHttp.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import flashclaim.testing.KeepAliveHttp;
import flashclaim.testing.ServiceInstance;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * G6 for connections: an instance holds at most {@code flashclaim.http.max-connections} open.
 * With that many open (here idle, as a stranger would hold them), a further connection is not
 * served until one of them closes, and then it is; the bound's meters count both. While the bound
 * is reached, an answer that leaves its connection owing nothing closes it ({@code
 * flashclaim.http.close-when-full}), which lets a waiting connection in. The silent connections are
 * held for as long as the test needs: {@code flashclaim.http.head-timeout} is off
 * ({@link HeadTimeoutTest} closes them).
 */
class ConnectionBoundTest {
  private static final int MAX = 8;

  @Test
  void atTheBoundANewConnectionWaitsUntilOneCloses() throws Exception {
    try (ServiceInstance service =
        ServiceInstance.start(
            Map.of(
                "flashclaim.http.max-connections", MAX,
                "flashclaim.http.close-when-full", false,
                "flashclaim.http.head-timeout", "0s"))) {
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
        ServiceInstance.start(
            Map.of("flashclaim.http.max-connections", MAX, "flashclaim.http.head-timeout", "0s"))) {
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
    KeepAliveHttp.holdSilentUntil(url, bound::open, MAX, held);
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
}
