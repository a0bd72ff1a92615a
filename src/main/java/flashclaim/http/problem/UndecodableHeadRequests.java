package flashclaim.http.problem;

import flashclaim.http.NextToHttpCodec;
import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import io.micronaut.http.server.netty.NettyServerCustomizer;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import jakarta.inject.Singleton;

/**
 * Gives a HEAD request that the server could not decode (a header section or a header too long,
 * a malformed header) the answer a GET gets: its status (400, 413, 414 or 431) and its
 * problem+json Content-Type. The framework answers such a HEAD with a bare 413 or 400, past every
 * error processor, so this handler, right after the HTTP codec, hands the framework the request as
 * a GET. The codec has already noted the method as HEAD, so the answer goes out without its body,
 * as an answer to HEAD must.
 */
@Singleton
final class UndecodableHeadRequests
    implements BeanCreatedEventListener<NettyServerCustomizer.Registry> {
  private static final String HANDLER = "flashclaim-undecodable-head";

  @Override
  public NettyServerCustomizer.Registry onCreated(BeanCreatedEvent<NettyServerCustomizer.Registry> event) {
    NextToHttpCodec.after(event.getBean(), HANDLER, channel -> AsGet.INSTANCE);
    return event.getBean();
  }

  @ChannelHandler.Sharable
  private static final class AsGet extends ChannelInboundHandlerAdapter {
    static final AsGet INSTANCE = new AsGet();

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (msg instanceof HttpRequest request
          && request.decoderResult().isFailure()
          && HttpMethod.HEAD.equals(request.method())) {
        request.setMethod(HttpMethod.GET);
      }
      ctx.fireChannelRead(msg);
    }
  }
}
