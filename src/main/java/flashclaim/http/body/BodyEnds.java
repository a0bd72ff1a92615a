package flashclaim.http.body;

import flashclaim.http.NextToHttpCodec;
import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import io.micronaut.http.server.netty.NettyServerCustomizer;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.AttributeKey;
import jakarta.inject.Singleton;

/**
 * Counts, on each HTTP/1.1 connection, the requests that began and the requests whose body ended
 * (its last byte arrived), as the bytes come off the wire. {@link RefusedBodyFilter} asks it
 * whether the body of a refused request is still arriving; a connection whose bodies have all
 * ended is fit for its next request.
 */
@Singleton
final class BodyEnds implements BeanCreatedEventListener<NettyServerCustomizer.Registry> {
  private static final AttributeKey<Counts> COUNTS = AttributeKey.valueOf(BodyEnds.class.getName());
  private static final String HANDLER = "flashclaim-body-ends";

  @Override
  public NettyServerCustomizer.Registry onCreated(BeanCreatedEvent<NettyServerCustomizer.Registry> event) {
    NextToHttpCodec.after(
        event.getBean(),
        HANDLER,
        channel -> {
          Counts counts = new Counts();
          channel.attr(COUNTS).set(counts);
          return new Counter(counts);
        });
    return event.getBean();
  }

  /** Requests begun on the connection so far; 0 when it is not counted. */
  static long begun(Channel channel) {
    Counts counts = channel.attr(COUNTS).get();
    return counts == null ? 0 : counts.begun;
  }

  /** Whether every request begun on the connection up to {@code request} has its whole body. */
  static boolean endedUpTo(Channel channel, long request) {
    Counts counts = channel.attr(COUNTS).get();
    return counts == null || counts.ended >= request;
  }

  /** Written on the connection's event loop only, read from any thread. */
  private static final class Counts {
    volatile long begun;
    volatile long ended;
  }

  private static final class Counter extends ChannelInboundHandlerAdapter {
    private final Counts counts;

    Counter(Counts counts) {
      this.counts = counts;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
      if (msg instanceof HttpRequest) {
        counts.begun++;
      }
      if (msg instanceof LastHttpContent) {
        counts.ended++;
      }
      super.channelRead(ctx, msg);
    }
  }
}
