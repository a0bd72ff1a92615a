package flashclaim.http;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.filter.ServerFilterPhase;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * Bounds the work of one instance (G6): at most {@code flashclaim.http.max-in-flight} API requests
 * at once; the next one is answered 503 with Retry-After at once, before it costs a thread, a token
 * check or a store call. The permit travels with the request and is returned exactly once, when
 * the response (success or error) leaves.
 *
 * <p>It also drains the instance before it stops ({@link #drain}): from then on every new API
 * request is answered 503 {@code shutting-down}, and the drain waits until the requests in flight
 * have answered.
 */
@ServerFilter("/v1/**")
final class LoadShedFilter implements Ordered {
  private static final String PERMIT = LoadShedFilter.class.getName() + ".permit";
  private static final String ADMITTED_AT = LoadShedFilter.class.getName() + ".admittedAt";

  private final Semaphore permits;
  private final HttpConfig config;
  private final LongAdder shed = new LongAdder();
  private final LongAdder refused = new LongAdder();
  private volatile boolean draining;

  private final Clock clock;

  LoadShedFilter(HttpConfig config, Clock clock) {
    this.config = config;
    this.clock = clock;
    this.permits = new Semaphore(config.maxInFlight());
  }

  @Override
  public int getOrder() {
    return ServerFilterPhase.FIRST.order();
  }

  /** Requests refused so far. */
  long shedCount() {
    return shed.sum();
  }

  /** Requests refused with 503 {@code shutting-down} so far. */
  long refusedWhileDraining() {
    return refused.sum();
  }

  /** True from the start of {@link #drain}: new API requests are refused. */
  boolean isDraining() {
    return draining;
  }

  /**
   * Refuses every new API request from now on and waits, at most {@code timeout}, until the ones in
   * flight have answered. Taking every permit is what proves that none is in flight: a permit is
   * returned only when its response leaves. The permits are never given back; the instance stops.
   *
   * @return true when nothing was in flight any more within the timeout
   */
  boolean drain(Duration timeout) throws InterruptedException {
    draining = true;
    return permits.tryAcquire(config.maxInFlight(), timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Requests being worked on now. */
  int inFlight() {
    return config.maxInFlight() - permits.availablePermits();
  }

  @RequestFilter
  @Nullable
  HttpResponse<?> admit(HttpRequest<?> request) {
    if (draining) {
      refused.increment();
      return Problem.unavailable(
          "shutting-down",
          "Shutting down",
          "this instance is stopping; retry, another instance will answer",
          request.getPath(),
          config.retryAfter());
    }
    if (permits.tryAcquire()) {
      request.setAttribute(PERMIT, new AtomicBoolean(true));
      request.setAttribute(ADMITTED_AT, clock.instant());
      return null;
    }
    shed.increment();
    return Problem.unavailable(
        "overloaded",
        "Overloaded",
        "this instance is at its limit of concurrent requests; retry later",
        request.getPath(),
        config.retryAfter());
  }

  /**
   * When this instance let the request in; deadlines count from here, so that time queued for a
   * thread is part of them (G6). Now, for a request this filter did not see.
   */
  static Instant admittedAt(HttpRequest<?> request, Clock clock) {
    return request.getAttribute(ADMITTED_AT, Instant.class).orElseGet(clock::instant);
  }

  @ResponseFilter
  void release(HttpRequest<?> request) {
    request
        .getAttribute(PERMIT, AtomicBoolean.class)
        .filter(held -> held.compareAndSet(true, false))
        .ifPresent(held -> permits.release());
  }
}
