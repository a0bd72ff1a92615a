package flashclaim.auth;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A token issuer's published keys as the service fetches them: a JSON Web Key Set with the public
 * half of its own RSA key pair, served over HTTP on a free port of this machine. A hanging one
 * accepts connections and never answers, as a stuck key server would.
 */
final class KeySetServer implements AutoCloseable {
  static final String PATH = "/keys.json";

  private final HttpServer server;
  private final RSAKey key;
  private final AtomicInteger fetches = new AtomicInteger();
  private final CountDownLatch closed = new CountDownLatch(1);

  private KeySetServer(RSAKey key, boolean hanging) {
    this.key = key;
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    byte[] keySet = new JWKSet(key.toPublicJWK()).toString().getBytes(StandardCharsets.UTF_8);
    server.createContext(
        PATH,
        exchange -> {
          fetches.incrementAndGet();
          if (hanging) {
            try {
              closed.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            exchange.close();
            return;
          }
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, keySet.length);
          try (OutputStream body = exchange.getResponseBody()) {
            body.write(keySet);
          }
        });
    server.setExecutor(Executors.newCachedThreadPool(daemon()));
    server.start();
  }

  /** Serves the public half of a new key pair whose key id is {@code kid}. */
  static KeySetServer serving(String kid) {
    return new KeySetServer(TokenForge.newRsaKey(kid), false);
  }

  /** Accepts every connection and never answers. */
  static KeySetServer hanging() {
    return new KeySetServer(TokenForge.newRsaKey("never-served"), true);
  }

  /** The key pair; only its public half is served. */
  RSAKey key() {
    return key;
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + PATH;
  }

  /** How many times the key set was asked for. */
  int fetches() {
    return fetches.get();
  }

  @Override
  public void close() {
    closed.countDown();
    server.stop(0);
  }

  private static ThreadFactory daemon() {
    return r -> {
      Thread t = new Thread(r, "key-set-server");
      t.setDaemon(true);
      return t;
    };
  }
}
