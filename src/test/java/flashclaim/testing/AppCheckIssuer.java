package flashclaim.testing;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * Firebase App Check as the tests see it, without the internet: RSA key pairs, their public JWKS
 * served on a free loopback port (what {@code firebaseappcheck.googleapis.com/v1/jwks} is in
 * production), and tokens signed as App Check signs them. The published keys can be rotated and
 * the endpoint made to fail; every fetch is counted.
 */
public final class AppCheckIssuer implements AutoCloseable {
  /** The request header that carries an App Check token. */
  public static final String HEADER = "X-Firebase-AppCheck";
  public static final String PROJECT_NUMBER = "123456789012";
  public static final String APP_ID = "1:123456789012:android:0123456789abcdef";
  public static final String ISSUER = "https://firebaseappcheck.googleapis.com/" + PROJECT_NUMBER;

  private final HttpServer server;
  private final AtomicInteger fetches = new AtomicInteger();
  private volatile String jwks;
  private volatile int failWith; // 0: serve the keys

  private AppCheckIssuer(HttpServer server) {
    this.server = server;
  }

  /** Serves the public halves of {@code keys} on a free port until closed. */
  public static AppCheckIssuer start(RSAKey... keys) {
    try {
      HttpServer server =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      AppCheckIssuer issuer = new AppCheckIssuer(server);
      issuer.publish(keys);
      server.createContext(
          "/v1/jwks",
          exchange -> {
            issuer.fetches.incrementAndGet();
            int status = issuer.failWith;
            byte[] body =
                (status == 0 ? issuer.jwks : "{\"error\":\"unavailable\"}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status == 0 ? 200 : status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
              out.write(body);
            }
          });
      server.start();
      return issuer;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A new 2048-bit RSA key pair with this key id. */
  public static RSAKey newKey(String keyId) {
    try {
      return new RSAKeyGenerator(2048).keyID(keyId).generate();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** From now on the endpoint publishes (the public halves of) these keys. */
  public void publish(RSAKey... keys) {
    jwks = new JWKSet(Arrays.<com.nimbusds.jose.jwk.JWK>asList(keys)).toPublicJWKSet().toString();
  }

  /** From now on the endpoint answers {@code status} without keys; 0 serves them again. */
  public void failWith(int status) {
    failWith = status;
  }

  /** Requests for the keys so far. */
  public int fetches() {
    return fetches.get();
  }

  public String jwksUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/jwks";
  }

  /**
   * Service properties for App Check in {@code mode} against this issuer, with a minimum refresh
   * interval of {@code minRefresh}.
   */
  public Map<String, Object> properties(String mode, Duration minRefresh) {
    return Map.of(
        "flashclaim.app-check.mode", mode,
        "flashclaim.app-check.project-number", PROJECT_NUMBER,
        "flashclaim.app-check.jwks-url", jwksUrl(),
        "flashclaim.app-check.jwks-min-refresh-interval", minRefresh.toMillis() + "ms");
  }

  /** The claims of a genuine token: this project, this app, valid for an hour. */
  public static JWTClaimsSet.Builder genuineClaims() {
    Instant now = Instant.now();
    return new JWTClaimsSet.Builder()
        .issuer(ISSUER)
        .audience(List.of("projects/" + PROJECT_NUMBER, "projects/demo-flashclaim"))
        .subject(APP_ID)
        .issueTime(Date.from(now.minusSeconds(5)))
        .expirationTime(Date.from(now.plus(Duration.ofHours(1))));
  }

  /** The header App Check signs with: RS256, the key's id, typ JWT. */
  public static JWSHeader.Builder genuineHeader(RSAKey key) {
    return new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).type(JOSEObjectType.JWT);
  }

  /** A genuine token signed with {@code key}. */
  public static String token(RSAKey key) {
    return token(key, UnaryOperator.identity(), UnaryOperator.identity());
  }

  /** A token signed with {@code key}, with its header and claims changed from the genuine ones. */
  public static String token(
      RSAKey key,
      UnaryOperator<JWSHeader.Builder> header,
      UnaryOperator<JWTClaimsSet.Builder> claims) {
    SignedJWT jwt =
        new SignedJWT(header.apply(genuineHeader(key)).build(), claims.apply(genuineClaims()).build());
    try {
      jwt.sign(new RSASSASigner(key));
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
    return jwt.serialize();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
