package flashclaim.http.shed;

import flashclaim.http.HttpConfig;
import flashclaim.http.NextToHttpCodec;
import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import io.micronaut.http.server.netty.NettyServerCustomizer;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bound on the HTTP connections one instance holds open ({@code
 * flashclaim.http.max-connections}): when that many are open, the listening sockets stop accepting
 * (as Tomcat's {@code maxConnections} does), so further connections wait in the kernel's accept
 * queue, and beyond it are not connected, until one closes. Without it, clients that open
 * connections faster than the instance answers (an overload, or a stranger holding connections
 * open) take every open file of the process, the store's connections and the instance's own
 * included.
 *
 * <p>While the bound is reached ({@code flashclaim.http.close-when-full}), an answer that leaves
 * its HTTP/1.1 connection owing nothing (every request it sent answered) says {@code Connection:
 * close}, and the connection is closed once the answer is written. So connections are freed as
 * fast as they are answered: a burst of clients that keep their connections after their answers
 * (a sold-out storm through a pool that opens a connection whenever all are busy) does not keep
 * the connections that wait in the accept queue behind it waiting for {@code
 * micronaut.server.idle-timeout}. The client reads the close with its answer, so it never sends a
 * request on a connection that is being closed. Otherwise connections close when their client
 * closes them, when they stay idle for {@code micronaut.server.idle-timeout}, or after a response
 * that closes them.
 *
 * <p>The count is exact, taken as each connection is accepted, and a listening socket stops
 * accepting at the bound.
 */
@Singleton
final class ConnectionBound implements BeanCreatedEventListener<NettyServerCustomizer.Registry> {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectionBound.class);

  /** The name of each HTTP/1.1 connection's {@link Activity} in its pipeline. */
  static final String HANDLER = "flashclaim-connection-activity";

  private final int max;
  private final boolean closeWhenFull;
  private final AtomicInteger open = new AtomicInteger();
  private final LongAdder pauses = new LongAdder();
  private final LongAdder closedWhenFull = new LongAdder();
  private final Set<Channel> listeners = ConcurrentHashMap.newKeySet();
  /** The longest the log stays silent while the bound is reached again and again. */
  private static final long WARN_EVERY_NANOS = Duration.ofSeconds(10).toNanos();

  /** When the bound's warning was last logged (System.nanoTime); as if long ago at first. */
  private final AtomicLong lastWarned = new AtomicLong(System.nanoTime() - WARN_EVERY_NANOS);

  ConnectionBound(HttpConfig config) {
    this.max = config.maxConnections();
    this.closeWhenFull = config.closeWhenFull();
  }

  @Override
  public NettyServerCustomizer.Registry onCreated(
      BeanCreatedEvent<NettyServerCustomizer.Registry> event) {
    event.getBean().register(new Customizer());
    if (max > 0 && closeWhenFull) {
      NextToHttpCodec.after(
          event.getBean(), HANDLER, channel -> new Activity(this::full, closedWhenFull::increment));
    }
    return event.getBean();
  }

  /** HTTP connections open now. */
  int open() {
    return open.get();
  }

  /** Times the instance stopped accepting because the bound was reached, so far. */
  long pauses() {
    return pauses.sum();
  }

  /** Connections closed after their answer because the bound was reached, so far. */
  long closedWhenFull() {
    return closedWhenFull.sum();
  }

  /** Whether the bound is reached now. */
  private boolean full() {
    return max > 0 && open.get() >= max;
  }

  private void listening(Channel listener) {
    listeners.add(listener);
    listener.closeFuture().addListener(closed -> listeners.remove(listener));
    // counted as the listener accepts them, on its own event loop: a count taken when a
    // connection's pipeline is built, on a worker loop that runs late under overload, let the
    // listener accept thousands past the bound before it paused
    listener.pipeline().addFirst(new Accepted());
    adjust();
  }

  private void opened(Channel connection) {
    if (open.incrementAndGet() == max && max > 0) {
      pauses.increment();
      warnReached();
    }
    connection.closeFuture().addListener(closed -> {
      open.decrementAndGet();
      adjust();
    });
    adjust();
  }

  /**
   * Says that the bound was reached, at most once per {@link #WARN_EVERY_NANOS}: while answers close
   * their connections at the bound, it is reached again with every connection accepted (about a
   * hundred times a second in a sold-out storm); the meter counts each time.
   */
  private void warnReached() {
    long now = System.nanoTime();
    long last = lastWarned.get();
    if (now - last >= WARN_EVERY_NANOS && lastWarned.compareAndSet(last, now)) {
      LOG.warn(
          "{} HTTP connections open (flashclaim.http.max-connections): not accepting more until"
              + " one closes; reached {} times so far",
          max,
          pauses.sum());
    }
  }

  /**
   * Accepts while fewer than the bound are open. Every change of the count is followed by a call,
   * and calls take turns, so the last one leaves the listeners as the count it read says.
   */
  private synchronized void adjust() {
    boolean accept = max == 0 || open.get() < max;
    for (Channel listener : listeners) {
      if (listener.config().isAutoRead() != accept) {
        listener.config().setAutoRead(accept);
      }
    }
  }

  /**
   * Counts each connection a listening socket accepts, before it is handed to a worker loop; the
   * listener's accept loop checks whether it may go on reading after each one.
   */
  private final class Accepted extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (msg instanceof Channel connection) {
        opened(connection);
      }
      ctx.fireChannelRead(msg);
    }
  }

  /** Notes the HTTP server's listening sockets. */
  private final class Customizer implements NettyServerCustomizer {
    @Override
    public NettyServerCustomizer specializeForChannel(Channel channel, ChannelRole role) {
      switch (role) {
        case LISTENER -> listening(channel);
        default -> {
          // connections are counted as they are accepted (Accepted); the streams of one HTTP/2
          // connection are not connections
        }
      }
      return this;
    }
  }

  /**
   * One HTTP/1.1 connection, right after its codec: counts the requests it has read and not
   * answered yet, and while the bound is reached closes it with the answer that leaves none. Runs
   * on the connection's event loop.
   */
  static final class Activity extends ChannelDuplexHandler {
    private final BooleanSupplier full;
    private final Runnable closing;
    /** Requests read whose answer has not been passed on to be written yet. */
    private int owed;
    /** The answer being passed on is an interim one (100 Continue): it answers no request. */
    private boolean interim;
    /** The answer being passed on says Connection: close, which this handler set. */
    private boolean closeWhenWritten;

    /**
     * {@code full} says whether the bound is reached now; {@code closing} is told of each
     * connection this closes.
     */
    Activity(BooleanSupplier full, Runnable closing) {
      this.full = full;
      this.closing = closing;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (msg instanceof HttpRequest) {
        owed++;
      }
      ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
      if (msg instanceof HttpResponse response) {
        interim = response.status().codeClass() == HttpStatusClass.INFORMATIONAL;
        if (!interim && owed == 1 && full.getAsBoolean() && HttpUtil.isKeepAlive(response)) {
          HttpUtil.setKeepAlive(response, false);
          closeWhenWritten = true;
        }
      }
      if (!(msg instanceof LastHttpContent)) {
        ctx.write(msg, promise);
        return;
      }
      if (interim) {
        interim = false;
        ctx.write(msg, promise);
        return;
      }
      if (owed > 0) {
        owed--;
      }
      if (!closeWhenWritten) {
        ctx.write(msg, promise);
        return;
      }
      closeWhenWritten = false;
      closing.run();
      ChannelPromise written = promise.unvoid();
      written.addListener(done -> ctx.close());
      ctx.write(msg, written);
    }
  }
}
