package flashclaim.http.shed;

import flashclaim.http.HttpConfig;
import flashclaim.http.NextToHttpCodec;
import flashclaim.http.RequestCounts;
import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import io.micronaut.http.server.netty.NettyServerCustomizer;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.concurrent.ScheduledFuture;
import jakarta.inject.Singleton;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The longest a request's head may take to arrive ({@code flashclaim.http.head-timeout}), as
 * Tomcat's {@code connectionTimeout} and nginx's {@code client_header_timeout} bound it: a
 * connection that has not sent the head of its first request within it of being accepted, or that
 * began a later request's head and has not sent the rest within it, is closed without an answer.
 * Without it, a stranger who opens connections and sends nothing, or feeds each a head a byte at a
 * time, holds them for {@code micronaut.server.idle-timeout} or, byte by byte, for ever: at {@code
 * flashclaim.http.max-connections} the instance then accepts nobody else.
 *
 * <p>Each HTTP/1.1 connection gets a {@link Clock}, a handler before the codec, which sees the
 * bytes and the framework's requests to read more, and reads the connection's {@link
 * RequestCounts} for the heads the codec decoded and the ends of their bodies. The clock runs from
 * the connection's start until its first head, and from the first byte that arrives while no
 * request's body is still arriving (the start of a later request) until that request's head.
 * Keep-alive connections idle between requests are not timed here ({@code
 * micronaut.server.idle-timeout} closes them), nor are bodies ({@code
 * flashclaim.http.bodies.read-timeout}). A connection whose requests are not counted is not timed.
 *
 * <p>The framework reads on demand: it asks for more only while it can take a request (not while
 * answers are owed or a claim is held at the door), and the codec asks for the rest of a head it
 * has begun. When the time is up while nothing asks for bytes, the delay is the service's own, and
 * the clock starts over instead of closing the connection. The check runs on the connection's
 * event loop, after the bytes that arrived before that loop's last poll were read, so a head that
 * came in time is never mistaken for a missing one.
 */
@Singleton
final class HeadTimeout implements BeanCreatedEventListener<NettyServerCustomizer.Registry> {
  private static final Logger LOG = LoggerFactory.getLogger(HeadTimeout.class);

  /** The name of each HTTP/1.1 connection's clock in its pipeline. */
  static final String HANDLER = "flashclaim-head-timeout";

  private final long timeoutNanos;
  private final LongAdder closed = new LongAdder();

  HeadTimeout(HttpConfig config) {
    this.timeoutNanos = config.headTimeout().toNanos();
  }

  @Override
  public NettyServerCustomizer.Registry onCreated(
      BeanCreatedEvent<NettyServerCustomizer.Registry> event) {
    if (timeoutNanos > 0) {
      NextToHttpCodec.before(
          event.getBean(), HANDLER, channel -> new Clock(timeoutNanos, closed::increment));
    }
    return event.getBean();
  }

  /** Connections closed because a head did not arrive in time, so far. */
  long closed() {
    return closed.sum();
  }

  /**
   * One connection's clock, the handler before its codec: the bytes that arrive and the
   * framework's requests to read. Its state is the connection's event loop's alone: the handler
   * and the timer run there.
   */
  static final class Clock extends ChannelDuplexHandler {
    private final long timeoutNanos;
    private final Runnable closing;
    /** A head is awaited, since {@link #since} (the event loop's clock, {@link #now}). */
    private boolean awaiting;

    private long since;
    /** The heads that had arrived on the connection when the wait began. */
    private long headsBefore;
    /**
     * The one timer of the connection, or null. It is not cancelled when a head arrives (a
     * request's head usually comes in the read that started the wait): when it fires it finds
     * nothing awaited, or a wait that began later, for which it runs again.
     */
    private ScheduledFuture<?> timer;
    /**
     * The framework asked for more bytes and none have come since. A new connection has been
     * asked already: the framework asks as its handler is added, before this one is.
     */
    private boolean asked = true;

    /** {@code closing} is told of each connection this closes. */
    Clock(long timeoutNanos, Runnable closing) {
      this.timeoutNanos = timeoutNanos;
      this.closing = closing;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      await(ctx, 0); // the first request's head is awaited from the start
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
      stop();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      stop();
      ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      RequestCounts counts = RequestCounts.of(ctx.channel());
      if (counts != null
          && msg instanceof ByteBuf bytes
          && bytes.isReadable()
          && !counts.bodyArriving()) {
        await(ctx, counts.begun()); // the first byte of a request whose head is not decoded yet
      }
      ctx.fireChannelRead(msg);
      if (counts != null && counts.begun() > headsBefore) {
        awaiting = false;
      }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      asked = false; // the framework asks again, after it, if it wants more
      ctx.fireChannelReadComplete();
    }

    @Override
    public void read(ChannelHandlerContext ctx) {
      asked = true;
      ctx.read();
    }

    /** A head is awaited from now, {@code heads} having arrived, unless one is already. */
    private void await(ChannelHandlerContext ctx, long heads) {
      if (!awaiting) {
        awaiting = true;
        since = now(ctx);
        headsBefore = heads;
      }
      if (timer == null) {
        schedule(ctx, timeoutNanos);
      }
    }

    private void schedule(ChannelHandlerContext ctx, long delayNanos) {
      timer = ctx.executor().schedule(() -> due(ctx), delayNanos, TimeUnit.NANOSECONDS);
    }

    /** The time of the connection's event loop, by which its timers run. */
    private static long now(ChannelHandlerContext ctx) {
      return ctx.executor().ticker().nanoTime();
    }

    private void stop() {
      if (timer != null) {
        timer.cancel(false);
        timer = null;
      }
    }

    private void due(ChannelHandlerContext ctx) {
      timer = null;
      RequestCounts counts = RequestCounts.of(ctx.channel());
      if (counts == null || counts.begun() > headsBefore) {
        awaiting = false; // not counted, so not timed; or the head came
      }
      if (!awaiting || !ctx.channel().isActive()) {
        return;
      }
      long left = since + timeoutNanos - now(ctx);
      if (left > 0) {
        schedule(ctx, left);
        return;
      }
      if (!asked) {
        since = now(ctx); // the service is not reading: the wait is its own
        schedule(ctx, timeoutNanos);
        return;
      }
      closing.run();
      LOG.debug(
          "{}: no request head within {} ms: closed",
          ctx.channel().remoteAddress(),
          TimeUnit.NANOSECONDS.toMillis(timeoutNanos));
      ctx.close();
    }
  }
}
