package flashclaim.http;

import io.micronaut.http.netty.channel.ChannelPipelineCustomizer;
import io.micronaut.http.server.netty.NettyServerCustomizer;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import java.util.function.Function;

/**
 * Puts a handler of the service's own right after the HTTP/1.1 codec of every connection, where
 * it sees each request as the codec decoded it, before the framework does.
 */
public final class AfterHttpCodec {
  private AfterHttpCodec() {}

  /**
   * Registers {@code handlerFor}: each new HTTP/1.1 connection gets the handler it makes for that
   * connection's channel, named {@code name}.
   */
  public static void install(
      NettyServerCustomizer.Registry registry, String name, Function<Channel, ChannelHandler> handlerFor) {
    registry.register(new Installer(null, name, handlerFor));
  }

  private record Installer(Channel channel, String name, Function<Channel, ChannelHandler> handlerFor)
      implements NettyServerCustomizer {
    @Override
    public NettyServerCustomizer specializeForChannel(Channel channel, ChannelRole role) {
      return role == ChannelRole.CONNECTION ? new Installer(channel, name, handlerFor) : this;
    }

    @Override
    public void onStreamPipelineBuilt() {
      if (channel != null
          && channel.pipeline().get(ChannelPipelineCustomizer.HANDLER_HTTP_SERVER_CODEC) != null) {
        channel
            .pipeline()
            .addAfter(ChannelPipelineCustomizer.HANDLER_HTTP_SERVER_CODEC, name, handlerFor.apply(channel));
      }
    }
  }
}
