package flashclaim.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.IntPredicate;
import java.util.function.IntSupplier;

/**
 * HTTP/1.1 over a plain socket, as a stranger speaks it: connections opened and held as the test
 * says, requests written and answers read byte by byte, so that what the instance does with a
 * connection (accepts it, answers it, closes it) is seen as it happens.
 */
public final class KeepAliveHttp {
  /** The request the tests send: the cheapest there is. */
  public static final String LIVENESS = "GET /health/liveness HTTP/1.1\r\nHost: localhost\r\n\r\n";

  private KeepAliveHttp() {}

  /** A connection to the instance at {@code url}, whose reads give up after 10 s. */
  public static Socket connect(URI url) throws IOException {
    Socket socket = new Socket(url.getHost(), url.getPort());
    socket.setSoTimeout(10_000);
    return socket;
  }

  /** Writes {@code text} on the connection. */
  public static void write(Socket socket, String text) throws IOException {
    OutputStream out = socket.getOutputStream();
    out.write(text.getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  /** Sends GET /health/liveness on the connection, keeping it open. */
  public static void send(Socket socket) throws IOException {
    write(socket, LIVENESS);
  }

  /** Sends GET /health/liveness on the connection, keeping it open, and reads the status line. */
  public static String liveness(Socket socket) throws IOException {
    send(socket);
    return readAnswer(socket);
  }

  /** The status line of the next answer, and the rest of its head and body read off. */
  public static String readAnswer(Socket socket) throws IOException {
    String head = readHead(socket);
    return head.substring(0, head.indexOf("\r\n"));
  }

  /** The head of the next answer, its body read off. */
  public static String readHead(Socket socket) throws IOException {
    InputStream in = socket.getInputStream();
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("closed after " + head);
      }
      head.append((char) b);
    }
    int length = 0;
    for (String line : head.toString().split("\r\n")) {
      if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
        length = Integer.parseInt(line.substring(15).trim());
      }
    }
    in.readNBytes(length);
    return head.toString();
  }

  /**
   * Opens connections that send nothing, as a stranger holds them, into {@code held} until the
   * instance at {@code url} holds {@code bound} open ({@code open} says how many it holds), each
   * counted before the next is opened.
   */
  public static void holdSilentUntil(URI url, IntSupplier open, int bound, List<Socket> held)
      throws IOException, InterruptedException {
    while (open.getAsInt() < bound) {
      int before = open.getAsInt();
      held.add(connect(url));
      awaitAtLeast(open, before + 1, Duration.ofSeconds(5));
    }
  }

  public static void awaitAtLeast(IntSupplier value, int least, Duration within)
      throws InterruptedException {
    assertThat(awaitValue(value, v -> v >= least, within)).isGreaterThanOrEqualTo(least);
  }

  public static void awaitAtMost(IntSupplier value, int most, Duration within)
      throws InterruptedException {
    assertThat(awaitValue(value, v -> v <= most, within)).isLessThanOrEqualTo(most);
  }

  /** {@code value} once it satisfies {@code reached}, or when {@code within} has passed. */
  public static int awaitValue(IntSupplier value, IntPredicate reached, Duration within)
      throws InterruptedException {
    long end = System.nanoTime() + within.toNanos();
    while (!reached.test(value.getAsInt()) && System.nanoTime() < end) {
      Thread.sleep(20);
    }
    return value.getAsInt();
  }
}
