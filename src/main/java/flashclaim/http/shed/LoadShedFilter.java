package flashclaim.http.shed;

import flashclaim.admission.FairAdmission;
import flashclaim.http.Arrival;
import flashclaim.http.ClaimRoute;
import flashclaim.http.FilterOrder;
import flashclaim.http.FilterPaths;
import flashclaim.http.HttpConfig;
import flashclaim.http.problem.Refusals;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.filter.ConditionalFilter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The first filter of every API request (G6). It notes when the request arrived ({@link Arrival}:
 * deadlines count from there: the moment it runs, less how far behind its event loop is, so the
 * wait before any filter saw the request counts too) and counts it in flight until its response
 * leaves.
 *
 * <p>Claims ({@link ClaimRoute}) pass on to the claim edge's adaptive limit and fair wait. Every other API route has a fixed bound: at most {@code
 * flashclaim.http.max-in-flight} such requests at once; the next one is answered 503 {@code
 * overloaded} with Retry-After at once, before it costs a thread, a token check or a store call.
 *
 * <p>It also drains the instance before it stops ({@link #drain}): from then on every new API
 * request is answered 503 {@code shutting-down} (claims by the claim edge, with their ticket), waiting claims too, and the drain waits until the requests in flight have
 * answered.
 */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
public final class LoadShedFilter implements Ordered, ConditionalFilter {
  private static final String PERMIT = LoadShedFilter.class.getName() + ".permit";
  private static final String COUNTED = LoadShedFilter.class.getName() + ".counted";

  private final Semaphore permits;
  private final HttpConfig config;
  private final FairAdmission claims;
  private final Clock clock;
  @Nullable private final EventLoopLag lag;
  private final FrontEndArrival frontEnd;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final Object drained = new Object();
  private final LongAdder shed = new LongAdder();
  private final LongAdder refused = new LongAdder();
  private volatile boolean draining;

  LoadShedFilter(
      HttpConfig config, FairAdmission claims, Clock clock, @Nullable EventLoopLag lag) {
    this.config = config;
    this.claims = claims;
    this.clock = clock;
    this.lag = config.arrivalCountsLoopLag() ? lag : null;
    this.frontEnd = new FrontEndArrival(config);
    this.permits = new Semaphore(config.maxInFlight());
  }

  @Override
  public int getOrder() {
    return FilterOrder.LOAD_SHED;
  }

  @Override
  public boolean isEnabled(HttpRequest<?> request) {
    return FilterPaths.isApi(request);
  }

  /** Requests other than claims refused with 503 {@code overloaded} so far. */
  long shedCount() {
    return shed.sum();
  }

  /** Requests other than claims refused with 503 {@code shutting-down} so far. */
  long refusedWhileDraining() {
    return refused.sum();
  }

  /** True from the start of {@link #drain}: new API requests are refused. */
  public boolean isDraining() {
    return draining;
  }

  /**
   * Refuses every new API request from now on, and the claims that wait for a slot, and waits, at
   * most {@code timeout}, until the requests in flight have answered.
   *
   * @return true when nothing was in flight any more within the timeout
   */
  public boolean drain(Duration timeout) throws InterruptedException {
    draining = true;
    claims.drain();
    long until = System.nanoTime() + timeout.toNanos();
    synchronized (drained) {
      while (inFlight.get() > 0) {
        long left = until - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        TimeUnit.NANOSECONDS.timedWait(drained, left);
      }
    }
    return true;
  }

  /** API requests this instance is working on now, claims that wait for a slot included. */
  public int inFlight() {
    return inFlight.get();
  }

  @RequestFilter
  @Nullable
  HttpResponse<?> admit(HttpRequest<?> request) {
    boolean claim = FilterPaths.isClaim(request);
    if (!claim) {
      if (draining) {
        refused.increment();
        return Refusals.shuttingDown(request.getPath(), config.retryAfter());
      }
      if (!permits.tryAcquire()) {
        shed.increment();
        return Refusals.overloaded(request.getPath(), config.retryAfter());
      }
      request.setAttribute(PERMIT, new AtomicBoolean(true));
    }
    stamp(request);
    request.setAttribute(COUNTED, new AtomicBoolean(true));
    inFlight.incrementAndGet();
    return null;
  }

  /**
   * Notes when the request arrived: now less how far behind this event loop is, which its deadline
   * counts from; and its place in the order of arrival: now, or a trusted front end's time of
   * arrival ({@link FrontEndArrival}), so that requests keep the order the front end received them
   * in however long each waited on its way here.
   */
  private void stamp(HttpRequest<?> request) {
    Instant now = clock.instant();
    Arrival.stamp(request, frontEnd.of(request, now).orElse(now), now.minus(behind()));
  }

  /**
   * What {@link #stamp} notes of a request read now that carries {@code frontEndValues} of the
   * trusted front end's header ({@link #frontEndHeader}): its place in the order of arrival, and
   * when it most likely came. For a step that answers before the filters (the claim door).
   */
  public Arrival.Times arrivalNow(List<String> frontEndValues) {
    Instant now = clock.instant();
    return new Arrival.Times(frontEnd.of(frontEndValues, now).orElse(now), now.minus(behind()));
  }

  /** The trusted front end's header of arrival times; empty when off. */
  public String frontEndHeader() {
    return frontEnd.header();
  }

  /** The front end's times of arrival read, and how long those requests waited before this. */
  FrontEndArrival frontEnd() {
    return frontEnd;
  }

  /**
   * How far behind this event loop is: a request it reads now came about that long ago ({@code
   * flashclaim.http.arrival-counts-loop-lag}; zero when off).
   */
  private Duration behind() {
    return lag == null ? Duration.ZERO : lag.currentLoopLag();
  }

  @ResponseFilter
  void release(HttpRequest<?> request) {
    if (once(request, PERMIT)) {
      permits.release();
    }
    if (once(request, COUNTED) && inFlight.decrementAndGet() == 0 && draining) {
      synchronized (drained) {
        drained.notifyAll();
      }
    }
  }

  /** True the first time only: the request's mark {@code name} was set and is now cleared. */
  private static boolean once(HttpRequest<?> request, String name) {
    return request
        .getAttribute(name, AtomicBoolean.class)
        .map(mark -> mark.compareAndSet(true, false))
        .orElse(false);
  }
}
