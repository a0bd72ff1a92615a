package flashclaim.http.shed;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.http.RequestCounts;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link HeadTimeout.Clock} around a real HTTP/1.1 codec on an {@link EmbeddedChannel} whose time
 * the test moves, read on demand as the framework reads: a connection is closed once a head is due
 * and bytes were asked for; time in which nothing asked does not count against the client; heads,
 * bodies and the idle time between requests stop or never start it.
 */
class HeadClockTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final AtomicInteger closed = new AtomicInteger();
  private final EmbeddedChannel channel = new EmbeddedChannel();

  HeadClockTest() {
    channel.freezeTime();
    channel.config().setAutoRead(false);
    HeadTimeout.Clock clock = new HeadTimeout.Clock(TIMEOUT.toNanos(), closed::incrementAndGet);
    channel.pipeline().addLast(clock, new HttpServerCodec(), RequestCounts.counter(channel));
  }

  @Test
  void aSilentConnectionIsClosedOnceItsFirstHeadIsDue() {
    after(TIMEOUT.minusMillis(1));
    assertThat(channel.isOpen()).as("not before it is due").isTrue();
    after(Duration.ofMillis(1));
    assertThat(channel.isOpen()).isFalse();
    assertThat(closed).hasValue(1);
  }

  @Test
  void aHeadInTimeStopsTheClock() {
    after(TIMEOUT.minusSeconds(1));
    receive("GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
    after(TIMEOUT.multipliedBy(3));
    assertThat(channel.isOpen()).isTrue();
    assertThat(closed).hasValue(0);
  }

  @Test
  void betweenRequestsNothingIsTimedUntilTheNextHeadBegins() {
    receive("GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
    after(TIMEOUT.multipliedBy(5));
    assertThat(channel.isOpen()).as("idle between requests").isTrue();

    receive("GET /health HTTP/1.1\r\n");
    after(TIMEOUT.minusMillis(1));
    receive("Host: x\r\n");
    assertThat(channel.isOpen()).as("a later head, timed from its first byte").isTrue();
    after(Duration.ofMillis(1));
    assertThat(channel.isOpen()).as("its head due, each byte notwithstanding").isFalse();
  }

  @Test
  void aBodyIsNotTimedAsAHead() {
    receive("POST /v1/x HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nab");
    after(TIMEOUT.multipliedBy(2));
    assertThat(channel.isOpen()).as("the body's own timeout is elsewhere").isTrue();
    receive("cd");
    after(TIMEOUT.multipliedBy(2));
    assertThat(channel.isOpen()).isTrue();
  }

  /**
   * A head begun is asked for by the codec itself (a decoder that made nothing of a read asks for
   * the next), whatever the framework does: the client is timed.
   */
  @Test
  void aHeadBegunIsTimedEvenWhileTheFrameworkAsksForNothing() {
    receiveAndPause("GET /health HTTP/1.1\r\n");
    after(TIMEOUT);
    assertThat(channel.isOpen()).isFalse();
  }

  /**
   * Time in which nothing on the connection asked for bytes (the service not reading) does not
   * count against the client: the clock starts over, and runs out once bytes are asked for.
   */
  @Test
  void timeInWhichNothingAskedForBytesDoesNotCount() {
    EmbeddedChannel bare = new EmbeddedChannel();
    bare.freezeTime();
    bare.config().setAutoRead(false);
    HeadTimeout.Clock clock = new HeadTimeout.Clock(TIMEOUT.toNanos(), closed::incrementAndGet);
    bare.pipeline().addLast(clock, RequestCounts.counter(bare)); // no codec to ask for more
    bare.read();
    bare.pipeline().fireChannelRead(Unpooled.copiedBuffer("GET /he", StandardCharsets.US_ASCII));
    bare.pipeline().fireChannelReadComplete();

    after(bare, TIMEOUT.multipliedBy(3));
    assertThat(bare.isOpen()).as("the wait was the service's").isTrue();
    bare.read();
    after(bare, TIMEOUT);
    assertThat(bare.isOpen()).isFalse();
    assertThat(closed).hasValue(1);
  }

  /** A connection whose requests nothing counts cannot tell a head from its absence: not timed. */
  @Test
  void aConnectionWhoseRequestsAreNotCountedIsNotTimed() {
    EmbeddedChannel uncounted = new EmbeddedChannel();
    uncounted.freezeTime();
    uncounted.config().setAutoRead(false);
    uncounted
        .pipeline()
        .addLast(
            new HeadTimeout.Clock(TIMEOUT.toNanos(), closed::incrementAndGet),
            new HttpServerCodec());
    uncounted.read();
    after(uncounted, TIMEOUT.multipliedBy(3));
    assertThat(uncounted.isOpen()).isTrue();
    assertThat(closed).hasValue(0);
  }

  /**
   * Bytes from the client, read as the framework reads: asked for, read, and then asked for again
   * (the framework asks for more whenever it can take a request).
   */
  private void receive(String text) {
    receiveAndPause(text);
    channel.read();
  }

  /** Bytes from the client, after which the framework asks for nothing more for now. */
  private void receiveAndPause(String text) {
    channel.read();
    channel.pipeline().fireChannelRead(Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII));
    channel.pipeline().fireChannelReadComplete();
    channel.inboundMessages().clear();
  }

  private void after(Duration time) {
    after(channel, time);
  }

  private static void after(EmbeddedChannel channel, Duration time) {
    channel.advanceTimeBy(time.toNanos(), TimeUnit.NANOSECONDS);
    channel.runScheduledPendingTasks();
    channel.runPendingTasks();
  }
}
