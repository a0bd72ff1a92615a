package flashclaim.http.shed;

import static flashclaim.testing.KeepAliveHttp.connect;
import static flashclaim.testing.KeepAliveHttp.liveness;
import static flashclaim.testing.KeepAliveHttp.readAnswer;
import static flashclaim.testing.KeepAliveHttp.send;
import static flashclaim.testing.KeepAliveHttp.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import flashclaim.testing.KeepAliveHttp;
import flashclaim.testing.ServiceInstance;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * G6 for connections that send no request: a connection whose request head does not arrive in
 * full within {@code flashclaim.http.head-timeout} of its start, or of its first byte, is closed, so
 * that strangers who open connections and stay silent, or feed a head a byte at a time, give the
 * instance's connections back; connections that ask in time, and keep-alive connections idle
 * between their requests, are left alone. One instance with a head timeout of 1 s and a bound of
 * {@value #MAX} connections.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HeadTimeoutTest {
  private static final int MAX = 6;
  private static final Duration TIMEOUT = Duration.ofSeconds(1);
  /** How long a test waits for a close that is due after {@link #TIMEOUT}. */
  private static final int CLOSE_WITHIN_MS = 10_000;

  private ServiceInstance service;
  private HeadTimeout heads;

  @BeforeAll
  void start() {
    service =
        ServiceInstance.start(
            Map.of(
                "flashclaim.http.head-timeout", TIMEOUT.toMillis() + "ms",
                "flashclaim.http.max-connections", MAX));
    heads = service.context().getBean(HeadTimeout.class);
  }

  @AfterAll
  void stop() {
    service.close();
  }

  @Test
  void aSilentConnectionIsClosedOnceTheHeadIsDue() throws Exception {
    long before = heads.closed();
    try (Socket silent = connect(service.url())) {
      long opened = System.nanoTime();
      silent.setSoTimeout(CLOSE_WITHIN_MS);
      assertThat(silent.getInputStream().read()).as("closed, with nothing written").isEqualTo(-1);
      assertThat(Duration.ofNanos(System.nanoTime() - opened))
          .as("not before its head was due")
          .isGreaterThanOrEqualTo(TIMEOUT.minusMillis(50));
    }
    assertThat(heads.closed()).isEqualTo(before + 1);
    MeterRegistry meters = service.context().getBean(MeterRegistry.class);
    assertThat(meters.get("flashclaim.http.head.timeouts").functionCounter().count())
        .isEqualTo(heads.closed());
  }

  /** A head fed a byte every 100 ms never ends; each byte is activity, but the head is late. */
  @Test
  void aHeadFedAByteAtATimeIsClosedOnceDue() throws Exception {
    long before = heads.closed();
    try (Socket slow = connect(service.url())) {
      write(slow, "GET /health/liveness HTTP/1.1\r\nHost: localhost\r\nX-Slow: ");
      long end = System.nanoTime() + Duration.ofMillis(CLOSE_WITHIN_MS).toNanos();
      assertThatThrownBy(
              () -> {
                while (System.nanoTime() < end) {
                  write(slow, "a");
                  Thread.sleep(100);
                }
              })
          .as("the connection closed under the bytes still being sent")
          .isInstanceOf(IOException.class);
    }
    assertThat(heads.closed()).isEqualTo(before + 1);
  }

  /** The head timeout starts again with each request's first byte, not at the previous answer. */
  @Test
  void aKeepAliveConnectionIdleBetweenRequestsIsNotTimed() throws Exception {
    long before = heads.closed();
    try (Socket client = connect(service.url())) {
      assertThat(liveness(client)).startsWith("HTTP/1.1 200");
      Thread.sleep(TIMEOUT.multipliedBy(2).toMillis());
      assertThat(liveness(client)).as("asked again after idling").startsWith("HTTP/1.1 200");
      // a head sent in two parts, the second within the timeout of the first
      write(client, "GET /health/liveness HTTP/1.1\r\n");
      Thread.sleep(TIMEOUT.dividedBy(2).toMillis());
      write(client, "Host: localhost\r\n\r\n");
      assertThat(readAnswer(client)).startsWith("HTTP/1.1 200");
    }
    assertThat(heads.closed()).isEqualTo(before);
  }

  /**
   * Silent strangers fill the bound; a client beyond it waits in the accept queue, and is served
   * once their heads are due and they are closed, long before the idle timeout (60 s).
   */
  @Test
  void silentStrangersAtTheBoundAreClosedAndTheNextClientIsServed() throws Exception {
    ConnectionBound bound = service.context().getBean(ConnectionBound.class);
    List<Socket> strangers = new ArrayList<>();
    try {
      KeepAliveHttp.holdSilentUntil(service.url(), bound::open, MAX, strangers);
      try (Socket client = connect(service.url())) {
        client.setSoTimeout(CLOSE_WITHIN_MS);
        send(client);
        assertThat(readAnswer(client))
            .as("served once the strangers were closed")
            .startsWith("HTTP/1.1 200");
      }
      for (Socket stranger : strangers) {
        stranger.setSoTimeout(CLOSE_WITHIN_MS);
        assertThat(stranger.getInputStream().read()).as("a stranger closed").isEqualTo(-1);
      }
    } finally {
      for (Socket stranger : strangers) {
        stranger.close();
      }
    }
  }

  @Test
  void withTheTimeoutOffASilentConnectionStaysOpen() throws Exception {
    try (ServiceInstance untimed =
            ServiceInstance.start(Map.of("flashclaim.http.head-timeout", "0s"));
        Socket silent = connect(untimed.url())) {
      silent.setSoTimeout((int) TIMEOUT.multipliedBy(3).toMillis());
      assertThatThrownBy(() -> silent.getInputStream().read())
          .as("still open after three times the timeout of the other instance")
          .isInstanceOf(SocketTimeoutException.class);
      assertThat(liveness(silent)).startsWith("HTTP/1.1 200");
    }
  }
}
