package flashclaim.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Many HTTP/1.1 POSTs with large bodies at once, from one thread (non-blocking sockets): each
 * request sends its head, then its body as fast as the server reads it (or one byte at a time,
 * slowly), and stops sending as soon as the server answers. The server's answer is recorded with
 * how much of the body had been sent by then.
 */
final class BodyFlood {
  private static final int BLOCK = 64 * 1024;
  private static final byte[] FILLER = filler();

  /** How a body is sent. */
  enum Kind {
    /** With its Content-Length, as fast as the server takes it. */
    DECLARED,
    /** Chunked (no Content-Length), as fast as the server takes it. */
    CHUNKED,
    /** With its Content-Length, one byte every {@link #SLOW_PACE}. */
    SLOW,
    /** Chunked, one byte every {@link #SLOW_PACE}, never ending. */
    SLOW_CHUNKED
  }

  static final Duration SLOW_PACE = Duration.ofMillis(300);

  /** One request of the flood. */
  record Request(String path, Kind kind, long size, Map<String, String> headers) {}

  /**
   * What became of a request: the status (0 when the connection ended without an answer), the
   * answer's head and body, and the body bytes sent before it came.
   */
  record Outcome(Request request, int status, String head, String body, long sent) {
    boolean answered() {
      return status > 0;
    }

    /** A header of the answer, null when it has none. */
    String header(String name) {
      return head == null ? null : Connection.header(head, name.toLowerCase(Locale.ROOT));
    }

    @Override
    public String toString() {
      return request.kind() + " " + request.path() + " -> " + status + " after " + sent + " bytes";
    }
  }

  private BodyFlood() {}

  /**
   * Sends every request at once and waits for all answers, at most {@code timeout}; a request
   * still unanswered then is a test failure.
   */
  static List<Outcome> send(URI base, List<Request> requests, Duration timeout) throws IOException {
    List<Connection> connections = new ArrayList<>();
    try (Selector selector = Selector.open()) {
      for (Request request : requests) {
        SocketChannel channel = SocketChannel.open();
        channel.configureBlocking(false);
        channel.connect(new InetSocketAddress(base.getHost(), base.getPort()));
        Connection c = new Connection(request, channel, head(base, request));
        connections.add(c);
        channel.register(selector, SelectionKey.OP_CONNECT, c);
      }
      long deadline = System.nanoTime() + timeout.toNanos();
      int open = connections.size();
      while (open > 0) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError(
              open + " requests unanswered after " + timeout + ": "
                  + connections.stream().filter(c -> c.outcome == null).limit(5).toList());
        }
        selector.select(20);
        // Ready sockets, and slow senders whose next byte is due.
        List<SelectionKey> due = new ArrayList<>(selector.selectedKeys());
        selector.selectedKeys().clear();
        long now = System.nanoTime();
        for (SelectionKey key : selector.keys()) {
          Connection c = (Connection) key.attachment();
          if (c.slow() && c.sending && now >= c.nextSlowByte && !due.contains(key)) {
            due.add(key);
          }
        }
        for (SelectionKey key : due) {
          Connection c = (Connection) key.attachment();
          if (c.outcome == null && key.isValid()) {
            c.step(key);
            if (c.outcome != null) {
              open--;
              key.cancel();
              c.channel.close();
            }
          }
        }
      }
    } finally {
      for (Connection c : connections) {
        c.channel.close();
      }
    }
    return connections.stream().map(c -> c.outcome).toList();
  }

  private static ByteBuffer head(URI base, Request request) {
    StringBuilder head =
        new StringBuilder("POST " + request.path() + " HTTP/1.1\r\n")
            .append("Host: ").append(base.getHost()).append(':').append(base.getPort()).append("\r\n")
            .append("Content-Type: application/json\r\n");
    request.headers().forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
    boolean chunked = request.kind() == Kind.CHUNKED || request.kind() == Kind.SLOW_CHUNKED;
    head.append(chunked ? "Transfer-Encoding: chunked\r\n" : "Content-Length: " + request.size() + "\r\n");
    return ByteBuffer.wrap(head.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
  }

  private static byte[] filler() {
    byte[] block = new byte[BLOCK];
    Arrays.fill(block, (byte) 'x');
    return block;
  }

  private static final class Connection {
    final Request request;
    final SocketChannel channel;
    ByteBuffer pending;
    long sent;
    boolean sending = true;
    boolean lastChunkWritten;
    long nextSlowByte;
    final ByteArrayOutputStream received = new ByteArrayOutputStream();
    Outcome outcome;
    String failure;
    final long started = System.nanoTime();

    Connection(Request request, SocketChannel channel, ByteBuffer head) {
      this.request = request;
      this.channel = channel;
      this.pending = head;
    }

    void step(SelectionKey key) {
      try {
        if (!channel.isConnected()) {
          if (!channel.finishConnect()) {
            return;
          }
        }
        read();
        if (outcome == null && sending) {
          write();
        }
        if (outcome == null) {
          // Wait to write only while there is something to write now.
          boolean writeNow = sending && !slow();
          key.interestOps(SelectionKey.OP_READ | (writeNow ? SelectionKey.OP_WRITE : 0));
        }
      } catch (IOException e) {
        // Reset or broken pipe: whatever the server answered before is in what was read.
        failure = e.toString();
        finish();
      }
    }

    boolean slow() {
      return request.kind() == Kind.SLOW || request.kind() == Kind.SLOW_CHUNKED;
    }

    /** Writes two blocks at most, so that every connection gets its turn and answers are read soon. */
    private void write() throws IOException {
      boolean slow = slow();
      for (int pieces = 0; sending && pieces < 2; pieces++) {
        if (pending == null || !pending.hasRemaining()) {
          if (slow && System.nanoTime() < nextSlowByte) {
            return;
          }
          pending = next(slow);
          if (pending == null) {
            sending = false;
            return;
          }
          nextSlowByte = System.nanoTime() + SLOW_PACE.toNanos();
        }
        if (channel.write(pending) == 0) {
          return;
        }
      }
    }

    /** The next piece of the body, or null when it is all sent. */
    private ByteBuffer next(boolean slow) {
      boolean chunked = request.kind() == Kind.CHUNKED || request.kind() == Kind.SLOW_CHUNKED;
      long left = request.kind() == Kind.SLOW_CHUNKED ? Long.MAX_VALUE : request.size() - sent;
      if (left <= 0) {
        if (chunked && !lastChunkWritten) {
          lastChunkWritten = true;
          return ByteBuffer.wrap("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        return null;
      }
      int n = (int) Math.min(slow ? 1 : BLOCK, left);
      sent += n;
      if (!chunked) {
        return ByteBuffer.wrap(FILLER, 0, n);
      }
      byte[] size = (Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII);
      ByteBuffer chunk = ByteBuffer.allocate(size.length + n + 2);
      return chunk.put(size).put(FILLER, 0, n).put((byte) '\r').put((byte) '\n').flip();
    }

    private void read() throws IOException {
      ByteBuffer buffer = ByteBuffer.allocate(8192);
      int n;
      while ((n = channel.read(buffer)) > 0) {
        received.write(buffer.array(), 0, n);
        buffer.clear();
      }
      if (n < 0 || complete()) {
        finish();
      }
    }

    /** Whether a whole answer (head and Content-Length bytes of body) has arrived. */
    private boolean complete() {
      String text = received.toString(StandardCharsets.ISO_8859_1);
      int end = text.indexOf("\r\n\r\n");
      if (end < 0) {
        return false;
      }
      String length = header(text.substring(0, end), "content-length");
      return length == null || text.length() - end - 4 >= Integer.parseInt(length);
    }

    private void finish() {
      String text = received.toString(StandardCharsets.UTF_8);
      int end = text.indexOf("\r\n\r\n");
      if (end < 0) {
        outcome =
            new Outcome(
                request, 0, null, failure + " after " + (System.nanoTime() - started) / 1_000_000 + " ms", sent);
        return;
      }
      String head = text.substring(0, end);
      int status = Integer.parseInt(head.split(" ", 3)[1]);
      outcome = new Outcome(request, status, head, text.substring(end + 4), sent);
    }

    private static String header(String head, String name) {
      for (String line : head.split("\r\n")) {
        int colon = line.indexOf(':');
        if (colon > 0 && line.substring(0, colon).trim().toLowerCase(Locale.ROOT).equals(name)) {
          return line.substring(colon + 1).trim();
        }
      }
      return null;
    }
  }
}
