package flashclaim.http;

import io.micronaut.http.netty.channel.ChannelPipelineCustomizer;
import io.micronaut.http.server.netty.NettyServerCustomizer;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelPipeline;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Puts handlers of the service's own next to the HTTP/1.1 codec of every connection: right after
 * it, where a handler sees each request as the codec decoded it, before the framework does; or on
 * both sides of it, where one sees the bytes as they come off the wire and the other the requests
 * they make.
 */
public final class NextToHttpCodec {
  private static final String CODEC = ChannelPipelineCustomizer.HANDLER_HTTP_SERVER_CODEC;

  private NextToHttpCodec() {}

  /** A connection's handler before the codec (bytes) and its handler after it (requests). */
  public record Around(ChannelHandler before, ChannelHandler after) {}

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
   * Registers {@code handlersFor}: each new HTTP/1.1 connection gets the two handlers it makes for
   * that connection's channel, {@code beforeName} right before the codec and {@code afterName}
   * right after it.
   */
  public static void around(
      NettyServerCustomizer.Registry registry,
      String beforeName,
      String afterName,
      Function<Channel, Around> handlersFor) {
    install(
        registry,
        channel -> {
          Around handlers = handlersFor.apply(channel);
          ChannelPipeline pipeline = channel.pipeline();
          pipeline.addBefore(CODEC, beforeName, handlers.before());
          pipeline.addAfter(CODEC, afterName, handlers.after());
        });
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
