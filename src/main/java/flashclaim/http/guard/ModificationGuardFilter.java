package flashclaim.http.guard;

import flashclaim.StoreException;
import flashclaim.guard.Guard;
import flashclaim.guard.GuardConfig;
import flashclaim.guard.GuardEntry;
import flashclaim.guard.GuardedResource;
import flashclaim.guard.ModificationGuard;
import flashclaim.http.FilterOrder;
import flashclaim.http.FilterPaths;
import flashclaim.http.HttpConfig;
import flashclaim.http.HttpExecutors;
import flashclaim.http.body.StreamedBody;
import flashclaim.http.problem.ProblemType;
import flashclaim.http.problem.StoreUnavailable;
import io.micronaut.context.annotation.Requires;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.order.Ordered;
import io.micronaut.core.util.StringUtils;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.filter.ConditionalFilter;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.web.router.RouteAttributes;
import io.micronaut.web.router.UriRouteMatch;
import java.security.Principal;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The modification guard in front of the routes of {@code flashclaim.guard.routes}: a POST, PUT,
 * PATCH or DELETE enters the {@link GuardedResource} of its matched route and caller before the
 * controller runs; a concurrent modification of the same resource gets 409 {@code
 * concurrent-modification} with Retry-After at once. GETs, routes not covered, requests that match
 * no route and anonymous requests on routes without variables pass through untouched.
 *
 * <p>It runs after authentication (it needs the caller) and after {@link IdempotencyFilter} (a
 * replay answers without entering any guard). The guard travels with the request as an attribute
 * and is left exactly once, when the response leaves, whatever it is: the controller's answer, an
 * error the framework turned into a response, or the answer to a request whose client is gone (the
 * route runs to its end regardless). Only an instance that dies before that leaves its guard behind,
 * for the TTL.
 *
 * <p>A file upload that streams ({@link StreamedBody}) enters no guard: it may go on for longer
 * than the TTL, it must not keep the campaign's other changes (a pause) out meanwhile, and what
 * it writes is idempotent by code.
 */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
@Requires(property = "flashclaim.guard.enabled", notEquals = StringUtils.FALSE)
@Requires(beans = ModificationGuard.class)
final class ModificationGuardFilter implements Ordered, ConditionalFilter {
  private static final Logger LOG = LoggerFactory.getLogger(ModificationGuardFilter.class);
  private static final String HELD = ModificationGuardFilter.class.getName() + ".guard";

  private final ModificationGuard guard;
  private final GuardConfig config;
  private final HttpConfig http;

  ModificationGuardFilter(
      ModificationGuard guard, GuardConfig config, HttpConfig http) {
    this.guard = guard;
    this.config = config;
    this.http = http;
  }

  @Override
  public int getOrder() {
    return FilterOrder.MODIFICATION_GUARD;
  }

  /** Only requests that guard a resource run this filter (and pay its hop to the store pool). */
  @Override
  public boolean isEnabled(HttpRequest<?> request) {
    return FilterPaths.isApiWrite(request)
        && !StreamedBody.isStreamed(request)
        && resourceOf(request).isPresent();
  }

  @RequestFilter
  @ExecuteOn(HttpExecutors.STORE)
  @Nullable
  HttpResponse<?> enter(HttpRequest<?> request) {
    Optional<GuardedResource> resource = resourceOf(request);
    if (resource.isEmpty()) {
      return null;
    }
    GuardEntry entry;
    try {
      entry = guard.enter(resource.get());
    } catch (StoreException e) {
      return StoreUnavailable.response(request, e, http);
    }
    if (entry instanceof GuardEntry.Entered entered) {
      request.setAttribute(HELD, new AtomicReference<>(entered.guard()));
      return null;
    } else if (entry instanceof GuardEntry.Busy busy) {
      return ProblemType.CONCURRENT_MODIFICATION.retryLater(
          "another request is modifying this resource; retry",
          request.getPath(),
          busy.retryAfter());
    }
    throw new IllegalStateException("unhandled guard entry " + entry);
  }

  @ResponseFilter
  @ExecuteOn(HttpExecutors.STORE)
  void leave(HttpRequest<?> request) {
    Optional<Guard> held =
        request.getAttribute(HELD, AtomicReference.class).map(h -> (Guard) h.getAndSet(null));
    if (held.isEmpty()) {
      return;
    }
    try {
      if (!guard.leave(held.get())) {
        LOG.warn("{} {} outlived its guard's TTL", request.getMethod(), request.getPath());
      }
    } catch (StoreException e) {
      LOG.warn(
          "guard of {} {} not released, it expires after its TTL: {}",
          request.getMethod(),
          request.getPath(),
          e.getMessage());
    }
  }

  private Optional<GuardedResource> resourceOf(HttpRequest<?> request) {
    if (!config.covers(request.getPath())
        || !(RouteAttributes.getRouteMatch(request).orElse(null) instanceof UriRouteMatch<?, ?> route)) {
      return Optional.empty();
    }
    String caller = request.getUserPrincipal().map(Principal::getName).orElse(null);
    return GuardedResource.of(
        caller, route.getRouteInfo().getUriMatchTemplate().toString(), route.getVariableValues());
  }
}
