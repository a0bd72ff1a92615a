package flashclaim.testing;

import io.micronaut.context.annotation.Requires;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.rules.SecurityRule;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Test-only routes whose handling the test holds open: a request with {@code ?gate=name} waits in
 * the controller until the test {@link #open opens} that gate (at most a minute), so a test knows
 * that a request is in flight for as long as it likes. Every call is counted per path, across all
 * instances of the test JVM. Present only where {@code flashclaim.test.held-routes} is true.
 */
@Controller("/v1/test")
@Requires(property = HeldRoutes.PROPERTY, value = "true")
@ExecuteOn("store")
public final class HeldRoutes {
  public static final String PROPERTY = "flashclaim.test.held-routes";
  private static final Map<String, CountDownLatch> GATES = new ConcurrentHashMap<>();
  private static final Map<String, AtomicInteger> CALLS = new ConcurrentHashMap<>();

  /** Opens a gate: requests waiting on it, and later ones, go on. */
  public static void open(String gate) {
    latch(gate).countDown();
  }

  /** How many times a path was handled by a controller. */
  public static int calls(String path) {
    return CALLS.getOrDefault(path, new AtomicInteger()).get();
  }

  /** Forgets all gates and counts. */
  public static void reset() {
    GATES.values().forEach(CountDownLatch::countDown);
    GATES.clear();
    CALLS.clear();
  }

  @Post("/held/{id}")
  @Secured(SecurityRule.IS_AUTHENTICATED)
  @Consumes(MediaType.ALL)
  HttpResponse<?> modify(
      @PathVariable String id, @Nullable @QueryValue String gate, @Body @Nullable byte[] body) {
    return handle("/v1/test/held/" + id, gate);
  }

  @Get("/held/{id}")
  @Secured(SecurityRule.IS_AUTHENTICATED)
  HttpResponse<?> read(@PathVariable String id, @Nullable @QueryValue String gate) {
    return handle("GET /v1/test/held/" + id, gate);
  }

  @Post("/public")
  @Secured(SecurityRule.IS_ANONYMOUS)
  @Consumes(MediaType.ALL)
  HttpResponse<?> publicModify(@Nullable @QueryValue String gate, @Body @Nullable byte[] body) {
    return handle("/v1/test/public", gate);
  }

  @Post("/public/{id}")
  @Secured(SecurityRule.IS_ANONYMOUS)
  @Consumes(MediaType.ALL)
  HttpResponse<?> publicModifyOne(
      @PathVariable String id, @Nullable @QueryValue String gate, @Body @Nullable byte[] body) {
    return handle("/v1/test/public/" + id, gate);
  }

  private static HttpResponse<?> handle(String path, String gate) {
    int call = CALLS.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
    if (gate != null) {
      try {
        if (!latch(gate).await(60, TimeUnit.SECONDS)) {
          throw new IllegalStateException("gate " + gate + " never opened");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    return HttpResponse.ok(Map.of("path", path, "call", call));
  }

  private static CountDownLatch latch(String gate) {
    return GATES.computeIfAbsent(gate, g -> new CountDownLatch(1));
  }
}
