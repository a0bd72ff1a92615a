package flashclaim.http;

import flashclaim.admission.AdmissionConfig;
import flashclaim.admission.FairAdmission;
import flashclaim.admission.Ticket;
import flashclaim.admission.TicketCodec;
import flashclaim.claim.ClaimConfig;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.filter.ConditionalFilter;
import io.micronaut.http.filter.FilterContinuation;
import io.micronaut.http.filter.ServerFilterPhase;
import io.micronaut.web.router.RouteMatch;
import java.security.Principal;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;

/**
 * Admission of claims (G6, G7): every request to a route marked {@link FairlyAdmitted} passes
 * {@link FairAdmission} before its store work. It runs at once while the adaptive limit has room;
 * otherwise it waits, without a thread, in order of its user's first arrival, until a slot is free
 * or its wait ends ({@code flashclaim.claim.deadline} after it arrived, less {@code
 * flashclaim.admission.work-reserve}); or it is refused at once with 503 {@code overloaded} when
 * its turn could not come in time or too many wait before it.
 *
 * <p>The user's first arrival travels with their retries in the {@value #TICKET} header: every 503
 * of such a route carries the caller's ticket (refused here, {@code busy}, {@code
 * store-unavailable}, {@code shutting-down}), and a request that sends a ticket back waits by the
 * arrival in it, on whichever instance it lands. A ticket that is not valid for this caller and
 * campaign is ignored: the request counts as arriving now.
 *
 * <p>It runs right after authentication, since a ticket is bound to the caller, and before the
 * idempotency filter, whose store work is part of the claim's. The slot is given back when the
 * response leaves, whatever it is, or when the client goes away.
 */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
final class ClaimAdmissionFilter implements Ordered, ConditionalFilter {
  /** After authentication, before {@link IdempotencyFilter}. */
  static final int ORDER = ServerFilterPhase.SECURITY.after() - 1;
  /** The header that carries a user's ticket, in 503s and in the retries that send it back. */
  static final String TICKET = "Flashclaim-Ticket";

  private final FairAdmission admission;
  private final TicketCodec tickets;
  private final AdmissionConfig config;
  private final ClaimConfig claims;
  private final Clock clock;

  ClaimAdmissionFilter(
      FairAdmission admission,
      TicketCodec tickets,
      AdmissionConfig config,
      ClaimConfig claims,
      Clock clock) {
    this.admission = admission;
    this.tickets = tickets;
    this.config = config;
    this.claims = claims;
    this.clock = clock;
  }

  @Override
  public int getOrder() {
    return ORDER;
  }

  @Override
  public boolean isEnabled(HttpRequest<?> request) {
    return admits(request);
  }

  /** Whether the request is to a route that this filter admits. */
  static boolean admits(HttpRequest<?> request) {
    return route(request).isPresent();
  }

  @RequestFilter
  Publisher<HttpResponse<?>> enter(
      HttpRequest<?> request, FilterContinuation<Publisher<HttpResponse<?>>> downstream) {
    Instant arrived = LoadShedFilter.admittedAt(request, clock);
    Optional<Place> place = place(request, arrived);
    Instant firstArrival = place.map(p -> p.ticket().arrivalNoLaterThan(arrived)).orElse(arrived);
    Instant waitUntil = arrived.plus(claims.deadline()).minus(config.workReserve());
    // Cancelled (the client went away) while it waits, the claim leaves the line; a slot that
    // arrives just as it is cancelled is discarded, and given back.
    return Mono.fromCompletionStage(admission.enter(firstArrival, waitUntil))
        .flatMap(
            entry ->
                entry instanceof FairAdmission.Entry.Admitted admitted
                    ? proceed(downstream, admitted.permit(), place)
                    : Mono.just(refusal(request, (FairAdmission.Entry.Refused) entry, place)))
        .doOnDiscard(
            FairAdmission.Entry.Admitted.class,
            admitted -> admitted.permit().release(FairAdmission.Result.IGNORED));
  }

  /** Runs the rest of the request in the slot, and gives the slot back however it ends. */
  private Mono<HttpResponse<?>> proceed(
      FilterContinuation<Publisher<HttpResponse<?>>> downstream,
      FairAdmission.Permit permit,
      Optional<Place> place) {
    AtomicReference<FairAdmission.Result> result =
        new AtomicReference<>(FairAdmission.Result.IGNORED);
    return Mono.from(downstream.proceed())
        .<HttpResponse<?>>map(
            response -> {
              result.set(
                  response.code() >= 500
                      ? FairAdmission.Result.DROPPED
                      : FairAdmission.Result.SUCCESS);
              return withTicket(response, place);
            })
        .doOnError(e -> result.set(FairAdmission.Result.DROPPED))
        .doFinally(signal -> permit.release(result.get()));
  }

  private HttpResponse<?> refusal(
      HttpRequest<?> request, FairAdmission.Entry.Refused refused, Optional<Place> place) {
    MutableHttpResponse<Problem> response =
        refused.reason() == FairAdmission.Reason.SHUTTING_DOWN
            ? LoadShedFilter.shuttingDown(request, refused.retryAfter())
            : LoadShedFilter.overloaded(request, refused.retryAfter());
    return withTicket(response, place);
  }

  /** A 503 with the caller's ticket, so that their retry keeps their place. */
  private HttpResponse<?> withTicket(HttpResponse<?> response, Optional<Place> place) {
    if (response.code() != 503 || place.isEmpty() || response.getHeaders().contains(TICKET)) {
      return response;
    }
    return response.toMutableResponse().header(TICKET, place.get().text(tickets));
  }

  /**
   * The caller's place in line for the route's campaign: the ticket they sent, if it is valid for
   * them and the campaign, else a new one that starts now. Empty for an anonymous caller.
   */
  private Optional<Place> place(HttpRequest<?> request, Instant arrived) {
    Optional<String> user = request.getUserPrincipal().map(Principal::getName);
    Optional<String> campaign =
        route(request)
            .map(r -> r.getVariableValues().get(variable(r)))
            .map(String::valueOf);
    if (user.isEmpty() || campaign.isEmpty()) {
      return Optional.empty();
    }
    List<String> sent = request.getHeaders().getAll(TICKET);
    Ticket ticket =
        (sent.size() == 1
                ? tickets.decode(sent.get(0), campaign.get(), user.get())
                : Optional.<Ticket>empty())
            .orElseGet(() -> tickets.first(arrived));
    return Optional.of(new Place(campaign.get(), user.get(), ticket));
  }

  private static Optional<RouteMatch<?>> route(HttpRequest<?> request) {
    return FilterPaths.routeMarked(request, FairlyAdmitted.class);
  }

  /** The path variable that names the campaign of a {@link FairlyAdmitted} route. */
  private static String variable(RouteMatch<?> route) {
    return route.getAnnotationMetadata().stringValue(FairlyAdmitted.class).orElse("id");
  }

  /** A caller's ticket for a campaign. */
  private record Place(String campaign, String user, Ticket ticket) {
    String text(TicketCodec tickets) {
      return tickets.encode(campaign, user, ticket);
    }
  }
}
