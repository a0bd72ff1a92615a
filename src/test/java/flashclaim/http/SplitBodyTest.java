package flashclaim.http;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.ServiceInstance;
import flashclaim.testing.Tokens;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A body that arrives after its headers, in parts, passes the body limit's count and is then bound
 * by the route: each such request answers 201, never 5xx.
 */
class SplitBodyTest {

  @Test
  void aBodySentAfterItsHeadersInPartsIsBoundOnce() throws Exception {
    try (ServiceInstance service = ServiceInstance.start(Map.of())) {
      for (int i = 0; i < 5; i++) {
        String id = "split-" + i + "-" + System.nanoTime();
        String json = "{\"id\":\"" + id + "\",\"name\":\"split body\",\"perUserLimit\":1}";
        assertThat(postInParts(service.url(), "/v1/admin/campaigns", json)).startsWith("HTTP/1.1 201");
      }
    }
  }

  /** Sends the headers, then the body in two parts with pauses between; returns the status line. */
  private static String postInParts(URI base, String path, String json) throws Exception {
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    try (Socket socket = new Socket(base.getHost(), base.getPort())) {
      socket.setSoTimeout(60_000);
      OutputStream out = socket.getOutputStream();
      String head =
          "POST " + path + " HTTP/1.1\r\nHost: " + base.getHost() + ":" + base.getPort()
              + "\r\nAuthorization: Bearer " + Tokens.admin()
              + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length
              + "\r\nConnection: close\r\n\r\n";
      out.write(head.getBytes(StandardCharsets.US_ASCII));
      out.flush();
      Thread.sleep(150);
      int half = body.length / 2;
      out.write(body, 0, half);
      out.flush();
      Thread.sleep(150);
      out.write(body, half, body.length - half);
      out.flush();
      InputStream in = socket.getInputStream();
      StringBuilder status = new StringBuilder();
      int c;
      while ((c = in.read()) != -1 && c != '\r') {
        status.append((char) c);
      }
      return status.toString();
    }
  }
}
