package flashclaim.http.claim;

import io.micronaut.context.BeanProvider;
import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import io.micronaut.http.netty.channel.ChannelPipelineCustomizer;
import io.micronaut.http.server.netty.NettyServerCustomizer;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import jakarta.inject.Singleton;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the claim door ({@link ClaimDoor}) sits: in every HTTP/1.1 connection's Netty pipeline,
 * after the HTTP codec (and the access log, which so logs its answers too) and before the
 * framework's handler. It sees each request's head as soon as it is decoded; a request the door
 * answers is not passed on (its empty body is dropped), and the answer is written at once, flushed
 * when the read ends (or, for a request whose answer waited, when it comes). HTTP/1.1 answers in the order of the requests on a connection: the door
 * answers only while the framework owes the connection no answer (it counts the requests it passed
 * on and the answers that went out), so a pipelined claim behind an unanswered request goes through
 * the framework. HTTP/2 connections have no door.
 */
@Singleton
final class DoorHandler implements BeanCreatedEventListener<NettyServerCustomizer.Registry> {
  private static final Logger LOG = LoggerFactory.getLogger(DoorHandler.class);
  private static final String NAME = "flashclaim-claim-door";

  private final BeanProvider<ClaimDoor> door;
  private final boolean enabled;

  DoorHandler(BeanProvider<ClaimDoor> door, DoorConfig config) {
    this.door = door;
    this.enabled = config.enabled();
  }

  @Override
  public NettyServerCustomizer.Registry onCreated(
      BeanCreatedEvent<NettyServerCustomizer.Registry> event) {
    if (enabled) {
      event.getBean().register(new Installer(null));
    }
    return event.getBean();
  }

  /** Puts a door in front of the framework's handler of each HTTP/1.1 connection. */
  private final class Installer implements NettyServerCustomizer {
    private final Channel connection;

    Installer(Channel connection) {
      this.connection = connection;
    }

    @Override
    public NettyServerCustomizer specializeForChannel(Channel channel, ChannelRole role) {
      return role == ChannelRole.CONNECTION ? new Installer(channel) : this;
    }

    @Override
    public void onStreamPipelineBuilt() {
      if (connection == null) {
        return;
      }
      ChannelPipeline pipeline = connection.pipeline();
      if (pipeline.get(ChannelPipelineCustomizer.HANDLER_HTTP_SERVER_CODEC) == null
          || pipeline.get(ChannelPipelineCustomizer.HANDLER_MICRONAUT_INBOUND) == null
          || pipeline.get(NAME) != null) {
        return; // not HTTP/1.1
      }
      String before =
          pipeline.get(ChannelPipelineCustomizer.HANDLER_HTTP_AGGREGATOR) != null
              ? ChannelPipelineCustomizer.HANDLER_HTTP_AGGREGATOR
              : ChannelPipelineCustomizer.HANDLER_MICRONAUT_INBOUND;
      pipeline.addBefore(before, NAME, new Door(door.get()));
    }
  }

  /**
   * The door of one connection; runs on its event loop only. A request whose answer waits (for the
   * shared read of a pool proven empty) is held: what the connection sends meanwhile is kept
   * behind it, and the end of the read is not passed on, so the framework asks for no more until
   * the held request is answered here or passed on, and then what was kept follows it.
   */
  private static final class Door extends ChannelDuplexHandler {
    private final ClaimDoor door;
    /** Requests passed on whose answer has not gone out yet. */
    private int owed;
    /** Dropping the rest of a request the door answered, up to its last content. */
    private boolean dropping;
    private boolean flush;
    /** The request whose answer the door waits for; null when none is held. */
    private HttpRequest held;
    /** What came after the held request, in order, until it is answered or passed on. */
    private final ArrayDeque<Object> behind = new ArrayDeque<>();
    /** A read ended while a request was held. */
    private boolean readEnded;

    Door(ClaimDoor door) {
      this.door = door;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (held != null) {
        behind.add(msg);
        return;
      }
      if (dropping) {
        dropping = !(msg instanceof LastHttpContent);
        ReferenceCountUtil.release(msg);
        return;
      }
      if (msg instanceof HttpRequest request && owed == 0) {
        CompletableFuture<Optional<FullHttpResponse>> answer = answer(request);
        if (!answer.isDone()) {
          held = request;
          answer.whenComplete(
              (done, error) ->
                  ctx.executor()
                      .execute(() -> resolve(ctx, error == null ? done : Optional.empty())));
          return;
        }
        if (answered(ctx, msg, answer.join())) {
          return;
        }
      }
      if (msg instanceof HttpRequest) {
        owed++;
      }
      ctx.fireChannelRead(msg);
    }

    /** Writes the answer, if any, and drops the request; false when it goes on instead. */
    private boolean answered(
        ChannelHandlerContext ctx, Object msg, Optional<FullHttpResponse> answer) {
      if (answer.isEmpty()) {
        return false;
      }
      dropping = !(msg instanceof LastHttpContent);
      ReferenceCountUtil.release(msg);
      ctx.write(answer.get(), ctx.voidPromise());
      flush = true;
      return true;
    }

    /** The held request's answer came: it is written, or the request goes on; then what followed. */
    private void resolve(ChannelHandlerContext ctx, Optional<FullHttpResponse> answer) {
      HttpRequest request = held;
      held = null;
      if (request == null) {
        return;
      }
      if (!ctx.channel().isActive()) {
        answer.ifPresent(ReferenceCountUtil::release);
        behind.forEach(ReferenceCountUtil::release);
        behind.clear();
        return;
      }
      if (!answered(ctx, request, answer)) {
        owed++;
        ctx.fireChannelRead(request);
      }
      while (held == null && !behind.isEmpty()) {
        channelRead(ctx, behind.poll());
      }
      if (held == null && readEnded) {
        readEnded = false;
        channelReadComplete(ctx);
      } else if (flush) {
        flush = false;
        ctx.flush();
      }
    }

    private CompletableFuture<Optional<FullHttpResponse>> answer(HttpRequest request) {
      try {
        return door.answer(request);
      } catch (RuntimeException e) {
        LOG.warn("The claim door failed on a request; it goes on to the pipeline", e);
        return CompletableFuture.completedFuture(Optional.empty());
      }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      if (held != null) {
        readEnded = true;
        return;
      }
      if (flush) {
        flush = false;
        ctx.flush();
      }
      ctx.fireChannelReadComplete();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      behind.forEach(ReferenceCountUtil::release);
      behind.clear();
      ctx.fireChannelInactive();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
      if (msg instanceof LastHttpContent
          && !(msg instanceof HttpResponse response
              && response.status().codeClass() == HttpStatusClass.INFORMATIONAL)
          && owed > 0) {
        owed--;
      }
      ctx.write(msg, promise);
    }
  }
}
