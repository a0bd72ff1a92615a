package flashclaim.testing;

import io.micronaut.context.annotation.Requires;
import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import io.micronaut.http.netty.channel.ChannelPipelineCustomizer;
import io.micronaut.http.server.netty.NettyServerCustomizer;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import jakarta.inject.Singleton;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;

/**
 * Records every exchange of the claim route as the client saw it (the {@value #HEADER} and
 * Idempotency-Key it sent, the status and {@value #HEADER} it got), right behind the HTTP codec of
 * each connection, so that the claims answered at the claim door count too and a test can check
 * what a client sends back when told to retry. It changes nothing: the tickets are the admission's
 * own. Present only where {@value #PROPERTY} is true.
 */
@Singleton
@Requires(property = TestTickets.PROPERTY, value = "true")
public final class TestTickets implements BeanCreatedEventListener<NettyServerCustomizer.Registry> {
  public static final String PROPERTY = "flashclaim.test.tickets";
  public static final String HEADER = "Flashclaim-Ticket";
  private static final Pattern CLAIM = Pattern.compile("/v1/campaigns/[^/?]+/claims(\\?.*)?");
  private static final List<Exchange> EXCHANGES = new CopyOnWriteArrayList<>();

  /** One claim request and its answer. */
  public record Exchange(String sentTicket, String idempotencyKey, int status, String receivedTicket) {}

  /** The exchanges so far, in the order they were answered. */
  public static List<Exchange> exchanges() {
    return List.copyOf(EXCHANGES);
  }

  public static void reset() {
    EXCHANGES.clear();
  }

  @Override
  public NettyServerCustomizer.Registry onCreated(
      BeanCreatedEvent<NettyServerCustomizer.Registry> event) {
    event.getBean().register(new Recording(null));
    return event.getBean();
  }

  /** Puts a recorder behind the codec of each HTTP/1.1 connection. */
  private record Recording(Channel connection) implements NettyServerCustomizer {
    @Override
    public NettyServerCustomizer specializeForChannel(Channel channel, ChannelRole role) {
      return role == ChannelRole.CONNECTION ? new Recording(channel) : this;
    }

    @Override
    public void onStreamPipelineBuilt() {
      if (connection != null
          && connection.pipeline().get(ChannelPipelineCustomizer.HANDLER_HTTP_SERVER_CODEC) != null) {
        connection
            .pipeline()
            .addAfter(
                ChannelPipelineCustomizer.HANDLER_HTTP_SERVER_CODEC, "test-tickets", new Recorder());
      }
    }
  }

  /** Pairs each answer with its request, in the order HTTP/1.1 answers them. */
  private static final class Recorder extends ChannelDuplexHandler {
    /** The requests not answered yet: a claim's headers, or null for any other request. */
    private final ArrayDeque<String[]> asked = new ArrayDeque<>();

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (msg instanceof HttpRequest request) {
        boolean claim = request.method() == HttpMethod.POST && CLAIM.matcher(request.uri()).matches();
        asked.add(
            claim
                ? new String[] {
                  request.headers().get(HEADER), request.headers().get("Idempotency-Key")
                }
                : new String[0]);
      }
      ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
      if (msg instanceof HttpResponse response
          && response.status().codeClass() != HttpStatusClass.INFORMATIONAL) {
        String[] request = asked.poll();
        if (request != null && request.length == 2) {
          EXCHANGES.add(
              new Exchange(
                  request[0], request[1], response.status().code(), response.headers().get(HEADER)));
        }
      }
      ctx.write(msg, promise);
    }
  }
}
