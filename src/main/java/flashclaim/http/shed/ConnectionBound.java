package flashclaim.http.shed;

import flashclaim.http.HttpConfig;
import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import io.micronaut.http.server.netty.NettyServerCustomizer;
import io.netty.channel.Channel;
import jakarta.inject.Singleton;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bound on the HTTP connections one instance holds open ({@code
 * flashclaim.http.max-connections}): when that many are open, the listening sockets stop accepting
 * (as Tomcat's {@code maxConnections} does), so further connections wait in the kernel's accept
 * queue, and beyond it are not connected, until one closes. Without it, clients that open connections faster than the
 * instance answers (an overload, or a stranger holding connections open) take every open file of
 * the process, the store's connections and the instance's own included. Connections close when
 * their client closes them, when they stay idle for {@code micronaut.server.idle-timeout}, or after
 * a response that closes them.
 *
 * <p>The count is exact; the bound is reached within one accept round: a listening socket that is
 * paused may already have accepted a few more (Netty accepts up to 16 at a time).
 */
@Singleton
final class ConnectionBound implements BeanCreatedEventListener<NettyServerCustomizer.Registry> {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectionBound.class);

  private final int max;
  private final AtomicInteger open = new AtomicInteger();
  private final LongAdder pauses = new LongAdder();
  private final Set<Channel> listeners = ConcurrentHashMap.newKeySet();

  ConnectionBound(HttpConfig config) {
    this.max = config.maxConnections();
  }

  @Override
  public NettyServerCustomizer.Registry onCreated(
      BeanCreatedEvent<NettyServerCustomizer.Registry> event) {
    event.getBean().register(new Customizer());
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

  private void listening(Channel listener) {
    listeners.add(listener);
    listener.closeFuture().addListener(closed -> listeners.remove(listener));
    adjust();
  }

  private void opened(Channel connection) {
    if (open.incrementAndGet() == max && max > 0) {
      pauses.increment();
      LOG.warn(
          "{} HTTP connections open (flashclaim.http.max-connections): not accepting more until"
              + " one closes",
          max);
    }
    connection.closeFuture().addListener(closed -> {
      open.decrementAndGet();
      adjust();
    });
    adjust();
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

  /** Counts every connection of the HTTP server and notes its listening sockets. */
  private final class Customizer implements NettyServerCustomizer {
    @Override
    public NettyServerCustomizer specializeForChannel(Channel channel, ChannelRole role) {
      switch (role) {
        case LISTENER -> listening(channel);
        case CONNECTION -> opened(channel);
        default -> {
          // the streams of one HTTP/2 connection are not connections
        }
      }
      return this;
    }
  }
}
