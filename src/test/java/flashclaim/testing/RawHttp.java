package flashclaim.testing;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;
import java.util.zip.InflaterInputStream;

/**
 * HTTP/1.1 written byte for byte on a fresh connection, for requests no well-behaved client sends:
 * any method token, any request target (raw spaces, non-ASCII, broken escapes), the same header
 * twice, any body under any Content-Type. It adds only {@code Host}, {@code Content-Length} (when
 * there is a body) and {@code Connection: close}, and reads the answer to the end of the stream (a
 * gzip or deflate body decoded). Every answer is held to the OpenAPI document ({@link
 * ApiContract}).
 */
public final class RawHttp {
  private static final int TIMEOUT_MILLIS = 60_000;

  private RawHttp() {}

  /** One request header as sent. */
  public record Header(String name, String value) {
    @Override
    public String toString() {
      return name + ": " + value;
    }
  }

  /**
   * Sends one request and returns the answer; a connection closed before a complete status line
   * arrives is an {@link UncheckedIOException}.
   *
   * @param body null for no body (and no Content-Length)
   */
  public static Api.Response send(
      URI base, String method, String target, List<Header> headers, byte[] body) {
    try (Socket socket = new Socket(base.getHost(), base.getPort())) {
      socket.setSoTimeout(TIMEOUT_MILLIS);
      StringBuilder head = new StringBuilder();
      head.append(method).append(' ').append(target).append(" HTTP/1.1\r\n");
      head.append("Host: ")
          .append(base.getHost())
          .append(':')
          .append(base.getPort())
          .append("\r\n");
      for (Header header : headers) {
        head.append(header.name()).append(": ").append(header.value()).append("\r\n");
      }
      if (body != null) {
        head.append("Content-Length: ").append(body.length).append("\r\n");
      }
      head.append("Connection: close\r\n\r\n");
      IOException unsent = null;
      try {
        OutputStream out = socket.getOutputStream();
        out.write(head.toString().getBytes(StandardCharsets.UTF_8));
        if (body != null) {
          out.write(body);
        }
        out.flush();
      } catch (IOException e) {
        // A server may answer and close before it has read the whole request (a header section
        // over its limit, say): the write then fails, but the answer is there to be read.
        unsent = e;
      }
      try {
        Api.Response response = read(socket.getInputStream(), method.equals("HEAD"), readable(target));
        ApiContract.check(method, target, response);
        return response;
      } catch (IOException e) {
        if (unsent != null) {
          e.addSuppressed(unsent);
        }
        throw e;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(method + " " + target, e);
    }
  }

  /**
   * The answer to a request written by hand on {@code socket} (a body sent in parts, or cut off),
   * held to the OpenAPI document.
   */
  public static Api.Response answer(Socket socket, String method, String target)
      throws IOException {
    Api.Response response = read(socket.getInputStream(), method.equals("HEAD"), readable(target));
    ApiContract.check(method, target, response);
    return response;
  }

  /**
   * The answer, read as far as its framing says (a server that keeps the connection open after a
   * complete answer does not hold the test up), or to the end of the stream when it has none. A
   * reset after part of an answer keeps what came.
   */
  private static Api.Response read(InputStream in, boolean head, boolean lineReadable)
      throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    while (true) {
      int n;
      try {
        n = in.read(buffer);
      } catch (IOException e) {
        if (bytes.size() == 0) {
          throw e;
        }
        n = -1;
      }
      if (n >= 0) {
        bytes.write(buffer, 0, n);
      }
      Api.Response response = parse(bytes.toByteArray(), head, lineReadable, n < 0);
      if (response != null) {
        return response;
      }
    }
  }

  /** Whether a request line with this target can be read: no space or control character. */
  private static boolean readable(String target) {
    return target.chars().allMatch(c -> c > 0x20 && c != 0x7f);
  }

  /** The answer in {@code bytes}, or null while it is incomplete and more may come. */
  private static Api.Response parse(byte[] bytes, boolean head, boolean lineReadable, boolean ended)
      throws IOException {
    int end = indexOf(bytes, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII), 0);
    if (end < 0) {
      if (ended) {
        throw new IOException(
            "no complete response head in "
                + bytes.length
                + " bytes: "
                + new String(bytes, StandardCharsets.UTF_8));
      }
      return null;
    }
    String[] lines = new String(bytes, 0, end, StandardCharsets.UTF_8).split("\r\n");
    String[] statusLine = lines[0].split(" ", 3);
    int status = Integer.parseInt(statusLine[1]);
    Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      headers
          .computeIfAbsent(lines[i].substring(0, colon).trim(), k -> new ArrayList<>())
          .add(lines[i].substring(colon + 1).trim());
    }
    byte[] rest = Arrays.copyOfRange(bytes, end + 4, bytes.length);
    // A request line the server could not read (over the limit, or a target with a space or a
    // control character) leaves it without the method, so it cannot know the request was a HEAD.
    if (head && rest.length > 0 && lineReadable && status != 414) {
      throw new IOException("an answer to HEAD went on past its head with " + rest.length + " bytes");
    }
    byte[] body;
    if (head || status == 204 || status == 304) {
      body = new byte[0];
    } else if (headers.getOrDefault("Transfer-Encoding", List.of()).contains("chunked")) {
      body = dechunk(rest);
      if (body == null && !ended) {
        return null;
      }
      if (body == null) {
        throw new IOException("truncated chunked body");
      }
    } else if (headers.containsKey("Content-Length")) {
      int length = Integer.parseInt(headers.get("Content-Length").get(0));
      if (rest.length < length && !ended) {
        return null;
      }
      body = Arrays.copyOf(rest, Math.min(length, rest.length));
    } else if (!ended) {
      return null;
    } else {
      body = rest;
    }
    String encoding = headers.getOrDefault("Content-Encoding", List.of("identity")).get(0);
    if (body.length > 0 && encoding.equalsIgnoreCase("gzip")) {
      body = new GZIPInputStream(new ByteArrayInputStream(body)).readAllBytes();
    } else if (body.length > 0 && encoding.equalsIgnoreCase("deflate")) {
      body = new InflaterInputStream(new ByteArrayInputStream(body)).readAllBytes();
    }
    return new Api.Response(status, headers, new String(body, StandardCharsets.UTF_8));
  }

  /** The body of a chunked one, or null while it is incomplete. */
  private static byte[] dechunk(byte[] chunked) {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    int at = 0;
    byte[] crlf = "\r\n".getBytes(StandardCharsets.US_ASCII);
    while (true) {
      int lineEnd = indexOf(chunked, crlf, at);
      if (lineEnd < 0) {
        return null;
      }
      String sizeLine = new String(chunked, at, lineEnd - at, StandardCharsets.US_ASCII);
      int semicolon = sizeLine.indexOf(';');
      int size =
          Integer.parseInt(
              (semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim(), 16);
      if (size == 0) {
        return body.toByteArray();
      }
      if (lineEnd + 2 + size > chunked.length) {
        return null;
      }
      body.write(chunked, lineEnd + 2, size);
      at = lineEnd + 2 + size + 2;
    }
  }

  private static int indexOf(byte[] bytes, byte[] part, int from) {
    for (int i = from; i <= bytes.length - part.length; i++) {
      if (Arrays.equals(bytes, i, i + part.length, part, 0, part.length)) {
        return i;
      }
    }
    return -1;
  }
}
