package flashclaim.http.body;

import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.ServerHttpRequest;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.body.AvailableByteBody;
import flashclaim.http.FilterOrder;
import flashclaim.http.RequestCounts;
import io.micronaut.http.server.netty.NettyHttpRequest;
import io.netty.channel.Channel;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * Ends the connection of a refused request whose body was not read to its end (G6): the framework
 * reads and drops the rest of such a body to reach the next request, which for an endless or huge
 * body would keep the connection busy without bound. If the body has still not ended {@code
 * flashclaim.http.bodies.linger} after the refusal, the connection is closed: the wait gives a
 * client that is still sending the time to read the answer (closing at once would reset the
 * connection under it and lose the answer), and a client whose body did end keeps its connection
 * for its next request (counted by {@link RequestCounts}).
 *
 * <p>It sees every answer, including those of authentication, load shedding and {@link
 * BodyLimitFilter}, so it runs before all of them.
 */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
final class RefusedBodyFilter implements Ordered {
  private final BodyConfig config;

  RefusedBodyFilter(BodyConfig config) {
    this.config = config;
  }

  @Override
  public int getOrder() {
    return FilterOrder.REFUSED_BODY;
  }

  @ResponseFilter
  void closeIfUnread(HttpRequest<?> request, HttpResponse<?> response) {
    if (response.code() < 400
        || ReadBodies.wasRead(request)
        || !(request instanceof NettyHttpRequest<?> netty)
        || !bodyPending(netty)) {
      return;
    }
    Channel channel = netty.getChannelHandlerContext().channel();
    RequestCounts counts = RequestCounts.of(channel);
    if (counts == null) {
      return;
    }
    long refused = counts.begun();
    channel
        .eventLoop()
        .schedule(
            () -> {
              if (counts.ended() < refused) {
                channel.close();
              }
            },
            config.linger().toMillis(),
            TimeUnit.MILLISECONDS);
  }

  /** Whether some of the request's body may still be on its way. */
  private static boolean bodyPending(ServerHttpRequest<?> request) {
    if (request.byteBody() instanceof AvailableByteBody) {
      return false;
    }
    OptionalLong declared = request.byteBody().expectedLength();
    return declared.isEmpty() || declared.getAsLong() > 0;
  }
}
