package flashclaim.auth;

import com.nimbusds.jose.jwk.KeyType;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jose.util.Resource;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.context.annotation.Requires;
import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.security.token.jwt.signature.SignatureConfiguration;
import io.micronaut.security.token.jwt.signature.jwks.JwksClient;
import io.micronaut.security.token.jwt.signature.jwks.JwksSignatureConfiguration;
import io.micronaut.security.token.jwt.signature.secret.SecretSignature;
import io.micronaut.security.token.jwt.signature.secret.SecretSignatureConfiguration;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.reactivestreams.Publisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one signature configuration of each mode, for micronaut-security-jwt to verify tokens with:
 * the HS256 secret in {@code local} mode, the key set at {@code flashclaim.auth.jwks-url} in {@code
 * firebase} mode. A mode never has the other's: a token signed with the (published) development
 * secret cannot pass in firebase mode. {@link TokenParser} pins the algorithm before either is
 * asked.
 */
@Factory
final class TokenSignatures {
  static final String LOCAL = "local";
  static final String FIREBASE = "firebase";

  @Singleton
  @Named(LOCAL)
  @Requires(property = AuthConfig.MODE, value = LOCAL, defaultValue = LOCAL)
  SignatureConfiguration localSignature(AuthConfig config, TokenPolicy policy) {
    SecretSignatureConfiguration secret = new SecretSignatureConfiguration(LOCAL);
    secret.setSecret(config.hs256Secret());
    secret.setJwsAlgorithm(policy.algorithm());
    return new SecretSignature(secret);
  }

  /** micronaut-security-jwt makes a signature of it that verifies with the fetched keys. */
  @Singleton
  @Named(FIREBASE)
  @Requires(property = AuthConfig.MODE, value = FIREBASE)
  JwksSignatureConfiguration firebaseKeys(AuthConfig config) {
    return new KeySet(FIREBASE, config.jwksUrl(), config.jwksRefresh());
  }

  /**
   * Fetches key sets with a deadline, in place of the library's clients: without
   * micronaut-http-client (as in production) it would wait for an answer without bound.
   */
  @Singleton
  @Replaces(JwksClient.class)
  JwksClient keySetClient(
      AuthConfig config,
      @Named(TaskExecutors.BLOCKING) ExecutorService blocking,
      WarmUpTokens warmUp) {
    return new BoundedJwksClient(config.jwksTimeout(), blocking, warmUp::withWarmUpKey);
  }

  /** A key set to verify RSA signatures with, fetched again after {@code refresh}. */
  record KeySet(String name, String url, Duration refresh) implements JwksSignatureConfiguration {
    @Override
    public String getName() {
      return name;
    }

    @Override
    public String getUrl() {
      return url;
    }

    @Override
    public KeyType getKeyType() {
      return KeyType.RSA;
    }

    @Override
    @SuppressWarnings("removal") // the library still reads it
    public Integer getCacheExpiration() {
      return Math.toIntExact(Math.max(1, refresh.toSeconds()));
    }
  }

  /**
   * Loads a key set within {@code timeout} (connecting, each read, and in all), at most {@value
   * #MAX_BYTES} bytes, on the blocking executor, and hands it on through {@code amend} (which adds
   * the start-up warm-up's public key while it runs, {@link WarmUpTokens#withWarmUpKey}). A failure
   * is logged and answers nothing: the library then has no keys, and every token is refused until a
   * later fetch succeeds.
   */
  static final class BoundedJwksClient implements JwksClient {
    /** Key sets are a few kilobytes. */
    static final int MAX_BYTES = 512 * 1024;

    private static final Logger LOG = LoggerFactory.getLogger(BoundedJwksClient.class);
    private final Duration timeout;
    private final DefaultResourceRetriever retriever;
    private final Executor executor;
    private final UnaryOperator<String> amend;

    BoundedJwksClient(Duration timeout, Executor executor, UnaryOperator<String> amend) {
      int millis = Math.toIntExact(Math.max(1, timeout.toMillis()));
      this.timeout = timeout;
      this.retriever = new DefaultResourceRetriever(millis, millis, MAX_BYTES);
      this.executor = executor;
      this.amend = amend;
    }

    @Override
    public Publisher<String> load(String providerName, String url) {
      return Publishers.fromCompletableFuture(
          () ->
              CompletableFuture.supplyAsync(() -> amend.apply(fetch(url)), executor)
                  .orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                  .exceptionally(
                      e -> {
                        LOG.warn("Could not fetch the token keys from {}: {}", url, e.toString());
                        return null;
                      }));
    }

    private String fetch(String url) {
      try {
        Resource resource = retriever.retrieveResource(URI.create(url).toURL());
        return resource.getContent();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
