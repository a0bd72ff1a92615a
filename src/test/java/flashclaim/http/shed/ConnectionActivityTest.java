package flashclaim.http.shed;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link ConnectionBound.Activity}: while the bound is reached, the answer that leaves its
 * connection owing nothing says {@code Connection: close} and closes it once written; an answer
 * while a request still waits for its own, an interim answer, or any answer below the bound
 * leaves it open.
 */
class ConnectionActivityTest {
  private final AtomicBoolean full = new AtomicBoolean();
  private final AtomicInteger closed = new AtomicInteger();
  private final EmbeddedChannel channel =
      new EmbeddedChannel(new ConnectionBound.Activity(full::get, closed::incrementAndGet));

  @Test
  void belowTheBoundAnAnswerLeavesItsConnectionOpen() {
    channel.writeInbound(request());
    FullHttpResponse answer = response(HttpResponseStatus.OK);
    channel.writeOutbound(answer);

    assertThat(answer.headers().contains(HttpHeaderNames.CONNECTION)).isFalse();
    assertThat(channel.isOpen()).isTrue();
  }

  @Test
  void atTheBoundTheLastAnswerOwedClosesItsConnection() {
    channel.writeInbound(request(), request());
    full.set(true);

    FullHttpResponse first = response(HttpResponseStatus.OK);
    channel.writeOutbound(first);
    assertThat(first.headers().contains(HttpHeaderNames.CONNECTION))
        .as("a request still owed its answer")
        .isFalse();
    assertThat(channel.isOpen()).isTrue();

    FullHttpResponse last = response(HttpResponseStatus.OK);
    channel.writeOutbound(last);
    assertThat(last.headers().get(HttpHeaderNames.CONNECTION)).isEqualTo("close");
    channel.runPendingTasks();
    assertThat(channel.isOpen()).as("closed once written").isFalse();
    assertThat(closed).hasValue(1);
  }

  @Test
  void anAnswerInPartsClosesAfterItsLastPart() {
    channel.writeInbound(request());
    full.set(true);

    HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
    channel.writeOutbound(head);
    assertThat(head.headers().get(HttpHeaderNames.CONNECTION)).isEqualTo("close");
    assertThat(channel.isOpen()).isTrue();

    channel.writeOutbound(LastHttpContent.EMPTY_LAST_CONTENT);
    channel.runPendingTasks();
    assertThat(channel.isOpen()).isFalse();
  }

  @Test
  void anInterimAnswerAnswersNothing() {
    channel.writeInbound(request());
    full.set(true);

    FullHttpResponse interim = response(HttpResponseStatus.CONTINUE);
    channel.writeOutbound(interim);
    assertThat(interim.headers().contains(HttpHeaderNames.CONNECTION)).isFalse();
    assertThat(channel.isOpen()).isTrue();

    channel.writeOutbound(response(HttpResponseStatus.CREATED));
    channel.runPendingTasks();
    assertThat(channel.isOpen()).isFalse();
  }

  private static DefaultFullHttpRequest request() {
    return new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/health/liveness");
  }

  private static FullHttpResponse response(HttpResponseStatus status) {
    return new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status);
  }
}
