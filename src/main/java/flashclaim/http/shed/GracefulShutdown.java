package flashclaim.http.shed;

import flashclaim.admission.ClaimPacing;
import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.context.event.ShutdownEvent;
import io.micronaut.core.order.Ordered;
import jakarta.inject.Singleton;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops an instance without dropping a request: first refuse new API requests with 503 {@code
 * shutting-down} (readiness turns DOWN), then wait up to {@code flashclaim.shutdown.grace-period}
 * for the requests in flight to answer, and only then let the context close the store client and,
 * last, the embedded emulator (beans are destroyed dependents first).
 *
 * <p>It runs on the context's {@link ShutdownEvent}, published before any bean is destroyed, and
 * from {@code flashclaim.Application}'s SIGTERM/SIGINT handler, before the HTTP server stops: the
 * server's own stop closes every connection at once, so the drain must come first. Micronaut's
 * {@code micronaut.lifecycle.graceful-shutdown} is not used: it stops the listener and closes idle
 * connections at once, so a request that arrives during the drain gets a refused connection
 * instead of a 503 with Retry-After, and on SIGTERM it runs only after the server has stopped.
 */
@Singleton
public final class GracefulShutdown implements ApplicationEventListener<ShutdownEvent>, Ordered {
  private static final Logger LOG = LoggerFactory.getLogger(GracefulShutdown.class);

  private final LoadShedFilter admission;
  private final ShutdownConfig config;
  private final ClaimPacing pacing;
  private final AtomicBoolean started = new AtomicBoolean();

  GracefulShutdown(LoadShedFilter admission, ShutdownConfig config, ClaimPacing pacing) {
    this.admission = admission;
    this.config = config;
    this.pacing = pacing;
  }

  /** Drains the instance, once; later calls return at once. */
  public void drain() {
    if (!started.compareAndSet(false, true)) {
      return;
    }
    int inFlight = admission.inFlight();
    LOG.info("shutting down: refusing new requests, {} in flight", inFlight);
    long began = System.nanoTime();
    pacing.sendHeldNow(); // answers 429 held for the callers' waits (ClaimPacing) go out now
    try {
      if (admission.drain(config.gracePeriod())) {
        if (inFlight > 0) {
          Thread.sleep(config.flushMargin().toMillis());
        }
        LOG.info("drained in {} ms", (System.nanoTime() - began) / 1_000_000);
      } else {
        LOG.warn(
            "{} requests still in flight after the grace period of {}; stopping anyway",
            admission.inFlight(),
            config.gracePeriod());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** True once the drain has begun. */
  public boolean isDraining() {
    return admission.isDraining();
  }

  @Override
  public void onApplicationEvent(ShutdownEvent event) {
    drain();
  }

  @Override
  public int getOrder() {
    return HIGHEST_PRECEDENCE;
  }
}
