package flashclaim.http;

import io.micronaut.http.netty.channel.ChannelPipelineCustomizer;
import io.micronaut.http.server.netty.NettyServerCustomizer;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Puts handlers of the service's own next to the HTTP/1.1 codec of every connection: right after
 * it, where a handler sees each request as the codec decoded it, before the framework does; or
 * right before it, where a handler sees the bytes as they come off the wire.
 */
public final class NextToHttpCodec {
  private static final String CODEC = ChannelPipelineCustomizer.HANDLER_HTTP_SERVER_CODEC;

  private NextToHttpCodec() {}

  /**
   * Registers {@code handlerFor}: each new HTTP/1.1 connection gets the handler it makes for that
   * connection's channel, named {@code name}, right after the codec.
   */
  public static void after(
      NettyServerCustomizer.Registry registry,
      String name,
      Function<Channel, ChannelHandler> handlerFor) {
    install(
        registry, channel -> channel.pipeline().addAfter(CODEC, name, handlerFor.apply(channel)));
  }

  /**
   * Registers {@code handlerFor}: each new HTTP/1.1 connection gets the handler it makes for that
   * connection's channel, named {@code name}, right before the codec.
   */
  public static void before(
      NettyServerCustomizer.Registry registry,
      String name,
      Function<Channel, ChannelHandler> handlerFor) {
    install(
        registry, channel -> channel.pipeline().addBefore(CODEC, name, handlerFor.apply(channel)));
  }

  /** Registers {@code installation}: what it adds to each connection's pipeline with the codec. */
  private static void install(
      NettyServerCustomizer.Registry registry, Consumer<Channel> installation) {
    registry.register(new Installer(null, installation));
  }

  private record Installer(Channel channel, Consumer<Channel> installation)
      implements NettyServerCustomizer {
    @Override
    public NettyServerCustomizer specializeForChannel(Channel channel, ChannelRole role) {
      return role == ChannelRole.CONNECTION ? new Installer(channel, installation) : this;
    }

    @Override
    public void onStreamPipelineBuilt() {
      if (channel != null && channel.pipeline().get(CODEC) != null) {
        installation.accept(channel);
      }
    }
  }
}
