package flashclaim.http;

import flashclaim.InvalidInputException;
import flashclaim.campaign.CampaignId;
import flashclaim.claim.ClaimService;
import flashclaim.claim.UserId;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.filter.ConditionalFilter;
import io.micronaut.http.filter.FilterContinuation;
import io.micronaut.web.router.RouteMatch;
import java.security.Principal;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;

/**
 * Claims this instance can answer without the store (G3, G6): a campaign that is not open, and a
 * pool proven empty for a user who holds nothing ({@link ClaimService#decideInMemory}). They are
 * answered here, before {@link ClaimAdmissionFilter}: they take no slot of the adaptive limit and
 * no store thread, and wait for the shared read of the additions counter without a thread. So a
 * sold-out storm is served at the rate of the event loops while the claims that need the store
 * keep their slots. Every other claim goes on to admission and the controller, which decide it as
 * before.
 */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
final class ClaimShortcutFilter implements Ordered, ConditionalFilter {
  /** After authentication (the user), just before {@link ClaimAdmissionFilter}. */
  static final int ORDER = ClaimAdmissionFilter.ORDER - 1;

  private final ClaimService claims;
  private final Clock clock;

  ClaimShortcutFilter(ClaimService claims, Clock clock) {
    this.claims = claims;
    this.clock = clock;
  }

  @Override
  public int getOrder() {
    return ORDER;
  }

  @Override
  public boolean isEnabled(HttpRequest<?> request) {
    return route(request).isPresent();
  }

  @RequestFilter
  Publisher<HttpResponse<?>> answer(
      HttpRequest<?> request, FilterContinuation<Publisher<HttpResponse<?>>> downstream) {
    Optional<String> user = request.getUserPrincipal().map(Principal::getName);
    Optional<String> campaign =
        route(request).map(r -> r.getVariableValues().get("id")).map(String::valueOf);
    if (user.isEmpty() || campaign.isEmpty()) {
      return downstream.proceed();
    }
    CampaignId campaignId;
    UserId userId;
    try {
      campaignId = new CampaignId(campaign.get());
      userId = new UserId(user.get());
    } catch (InvalidInputException e) {
      return downstream.proceed(); // the controller refuses it as it refuses every bad input
    }
    Instant arrived = LoadShedFilter.admittedAt(request, clock);
    String path = request.getPath();
    return Mono.fromFuture(claims.decideInMemory(campaignId, userId, arrived))
        .flatMap(
            decided ->
                decided.isPresent()
                    ? Mono.<HttpResponse<?>>just(ClaimController.answer(decided.get(), campaign.get(), path))
                    : Mono.from(downstream.proceed()));
  }

  private static Optional<RouteMatch<?>> route(HttpRequest<?> request) {
    return FilterPaths.routeMarked(request, AnsweredFromMemoryFirst.class);
  }
}
