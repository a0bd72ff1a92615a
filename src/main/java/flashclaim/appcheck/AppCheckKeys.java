package flashclaim.appcheck;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jose.util.ResourceRetriever;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * App Check's public keys (a JWKS), kept in memory and fetched on a thread of their own, never on
 * the thread of a request: a request that needs a fetch gets a future that completes when it ends.
 *
 * <p>Keys are fetched again when they are older than {@code jwks-cache-ttl} or when a token names a
 * key id they lack (App Check rotates its keys). Fetches are single-flight (requests that need one
 * while it runs share it) and at least {@code jwks-min-refresh-interval} apart: in between, the
 * keys at hand are used, so a flood of tokens with made-up key ids costs one fetch per interval.
 * A fetch that fails keeps the last keys (an outage of the keys endpoint does not refuse genuine
 * apps); before the first success there are none, and every token is invalid.
 */
@Singleton
public class AppCheckKeys {
  private static final Logger LOG = LoggerFactory.getLogger(AppCheckKeys.class);
  /** The largest JWKS accepted; App Check's is about 2 KB. */
  private static final int MAX_JWKS_BYTES = 64 * 1024;
  private static final JWKSet NONE = new JWKSet(List.of());

  private final Clock clock;
  private final URL url;
  private final Duration ttl;
  private final Duration minRefreshInterval;
  private final ResourceRetriever retriever;
  private final ExecutorService fetcher;
  private final LongAdder fetched = new LongAdder();
  private final LongAdder failedFetches = new LongAdder();

  private volatile Fetched current; // null until a fetch succeeded
  private CompletableFuture<JWKSet> inFlight; // guarded by this
  private Instant lastAttempt; // guarded by this; null before the first

  public AppCheckKeys(AppCheckConfig config, Clock clock) {
    this.clock = clock;
    this.ttl = config.jwksCacheTtl();
    this.minRefreshInterval = config.jwksMinRefreshInterval();
    this.url = toUrl(config.jwksUrl());
    int timeout = Math.toIntExact(config.jwksFetchTimeout().toMillis());
    this.retriever = new DefaultResourceRetriever(timeout, timeout, MAX_JWKS_BYTES);
    this.fetcher =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "app-check-keys");
              t.setDaemon(true);
              return t;
            });
  }

  /** Starts a fetch in the background, so that the first token finds the keys at hand. */
  void prefetch() {
    refresh(clock.instant());
  }

  /**
   * The keys to check a token signed with key {@code keyId} against: at once when the keys at hand
   * are fresh and have this key; otherwise when a fetch ends, or at once with the keys at hand
   * (possibly none) when the last fetch began less than the minimum interval ago.
   */
  public CompletableFuture<JWKSet> forKeyId(String keyId) {
    Fetched keys = current;
    Instant now = clock.instant();
    if (keys != null && now.isBefore(keys.at().plus(ttl)) && keys.set().getKeyByKeyId(keyId) != null) {
      return CompletableFuture.completedFuture(keys.set());
    }
    return refresh(now);
  }

  /** Fetches that succeeded so far. */
  public long fetchedCount() {
    return fetched.sum();
  }

  /** Fetches that failed so far (unreachable, an error status, not a JWKS, too large). */
  public long failedFetchCount() {
    return failedFetches.sum();
  }

  private synchronized CompletableFuture<JWKSet> refresh(Instant now) {
    if (inFlight != null) {
      return inFlight;
    }
    if (lastAttempt != null && now.isBefore(lastAttempt.plus(minRefreshInterval))) {
      return CompletableFuture.completedFuture(atHand());
    }
    lastAttempt = now;
    CompletableFuture<JWKSet> fetch = new CompletableFuture<>();
    inFlight = fetch;
    try {
      fetcher.execute(() -> fetch(fetch));
    } catch (RejectedExecutionException e) { // shutting down
      inFlight = null;
      fetch.complete(atHand());
    }
    return fetch;
  }

  private void fetch(CompletableFuture<JWKSet> done) {
    JWKSet result;
    try {
      JWKSet set = JWKSet.parse(retriever.retrieveResource(url).getContent());
      current = new Fetched(set, clock.instant());
      fetched.increment();
      result = set;
    } catch (IOException | ParseException | RuntimeException e) {
      failedFetches.increment();
      LOG.warn("App Check keys not fetched from {}, the last keys stay in use: {}", url, e.toString());
      result = atHand();
    }
    synchronized (this) {
      inFlight = null;
    }
    done.complete(result);
  }

  private JWKSet atHand() {
    Fetched keys = current;
    return keys == null ? NONE : keys.set();
  }

  @PreDestroy
  void close() {
    fetcher.shutdownNow();
  }

  private static URL toUrl(String url) {
    try {
      return URI.create(url).toURL();
    } catch (IOException | IllegalArgumentException e) {
      throw new IllegalArgumentException("flashclaim.app-check.jwks-url is not a URL: " + url, e);
    }
  }

  private record Fetched(JWKSet set, Instant at) {}
}
