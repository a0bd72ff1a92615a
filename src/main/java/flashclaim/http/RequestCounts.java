package flashclaim.http;

import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import io.micronaut.http.server.netty.NettyServerCustomizer;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.AttributeKey;
import jakarta.inject.Singleton;

/**
 * One HTTP/1.1 connection's requests, counted as the codec decodes them off the wire: the requests
 * whose head arrived ({@link #begun()}) and those whose body ended, its last byte arrived ({@link
 * #ended()}). Whoever needs to know where a connection stands between requests reads them here: a
 * refused request's body still arriving ({@code http.body}), a head still awaited ({@code
 * http.shed}).
 *
 * <p>Written on the connection's event loop only, read from any thread. A connection the counter
 * was not installed on has none ({@link #of} gives null), and each reader decides what that means
 * for it.
 */
public final class RequestCounts {
  private static final AttributeKey<RequestCounts> KEY =
      AttributeKey.valueOf(RequestCounts.class.getName());

  private volatile long begun;
  private volatile long ended;

  private RequestCounts() {}

  /** The connection's counts, or null when its requests are not counted. */
  public static RequestCounts of(Channel channel) {
    return channel.attr(KEY).get();
  }

  /**
   * A new counter for {@code channel}, which its counts are then read from: the handler to put
   * right after the connection's HTTP/1.1 codec.
   */
  public static ChannelHandler counter(Channel channel) {
    RequestCounts counts = new RequestCounts();
    channel.attr(KEY).set(counts);
    return new Counter(counts);
  }

  /** Requests whose head has arrived, so far. */
  public long begun() {
    return begun;
  }

  /** Requests whose body has ended (all of it arrived), so far. */
  public long ended() {
    return ended;
  }

  /** Whether a request has begun whose body is still arriving. */
  public boolean bodyArriving() {
    return ended < begun;
  }

  /** Puts the counter on every HTTP/1.1 connection, right after its codec. */
  @Singleton
  static final class Installer implements BeanCreatedEventListener<NettyServerCustomizer.Registry> {
    private static final String HANDLER = "flashclaim-request-counts";

    @Override
    public NettyServerCustomizer.Registry onCreated(
        BeanCreatedEvent<NettyServerCustomizer.Registry> event) {
      NextToHttpCodec.after(event.getBean(), HANDLER, RequestCounts::counter);
      return event.getBean();
    }
  }

  private static final class Counter extends ChannelInboundHandlerAdapter {
    private final RequestCounts counts;

    Counter(RequestCounts counts) {
      this.counts = counts;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (msg instanceof HttpRequest) {
        counts.begun++;
      }
      if (msg instanceof LastHttpContent) {
        counts.ended++;
      }
      ctx.fireChannelRead(msg);
    }
  }
}
