package flashclaim.http.claim;

import flashclaim.InvalidInputException;
import flashclaim.appcheck.AppCheckMode;
import flashclaim.appcheck.AppCheckVerifier;
import flashclaim.claim.ClaimService;
import flashclaim.http.ClaimRoute;
import flashclaim.http.FilterOrder;
import flashclaim.http.FilterPaths;
import flashclaim.http.UnlessReplayed;
import flashclaim.http.problem.InvalidInput;
import flashclaim.http.problem.ProblemType;
import flashclaim.idempotency.IdempotencyConfig;
import flashclaim.idempotency.IdempotencyKey;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.filter.ConditionalFilter;
import io.micronaut.http.filter.FilterContinuation;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Supplier;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The edge of the claim route ({@link ClaimRoute}), its steps in the order a claim meets them.
 *
 * <p>Before it, as for every API request ({@link FilterOrder}): a request id, the one spelling of
 * the path (else 404), load shedding (the claim is counted in flight and its arrival noted),
 * pacing ({@link ClaimPacingFilter}: a retry sooner than the Retry-After of its caller's last 503
 * is answered 429 {@code retry-too-soon} from memory, before its token is checked),
 * authentication (else 401), and the body limit (a claim takes no body). Then, here:
 *
 * <ol>
 *   <li><b>App Check</b>: in {@code enforce} mode a claim without a valid {@value #APP_CHECK}
 *       token is answered 401 {@code app-check-required}, before any other claim answer; {@code
 *       monitor} mode counts and goes on, {@code off} skips the step.
 *   <li><b>Ids</b>: a campaign id or user id that breaks its rules is answered 400.
 *   <li><b>Answers without the store</b> ({@link ClaimService#decideWithoutStore}): a campaign
 *       that is not open (403) for a user who cannot hold its limit (a paused or ended campaign's
 *       holders are admitted, to get their coupon back), and a pool proven empty for a user who
 *       does not hold the limit (410). They take
 *       no admission slot and no store thread, so a sold-out storm is served at the rate of the
 *       event loops while claims that need the store keep their slots. One exception: such a
 *       refusal of a user who holds some coupons (fewer than the limit), for a claim with an
 *       Idempotency-Key, may be the repeat of the claim that gave one, which is owed that claim's
 *       answer: it goes on to admission, and in its slot the idempotency filter reads the key's
 *       record and answers what it holds, or this refusal ({@link UnlessReplayed}).
 *   <li><b>Fair admission</b> ({@link ClaimAdmission}): a slot of the adaptive limit, waited for in
 *       order of first arrival, or 503 {@code overloaded} with the caller's ticket.
 * </ol>
 *
 * <p>After it, in the slot: the idempotency key (its own filter, shared with the other POST
 * routes), then {@link ClaimController}, which decides the claim with the store. Every step runs on
 * the event loop and never blocks; a step that waits (App Check's keys, the shared read of the
 * sold-out proof, a slot) completes from another thread.
 */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
final class ClaimEdgeFilter implements Ordered, ConditionalFilter {
  /** The header of the Firebase App Check token. */
  static final String APP_CHECK = "X-Firebase-AppCheck";

  private final AppCheckVerifier appCheck;
  private final ClaimService claims;
  private final ClaimAdmission admission;
  private final IdempotencyConfig idempotency;
  private final Clock clock;
  private final ClaimDoor door;

  ClaimEdgeFilter(
      AppCheckVerifier appCheck,
      ClaimService claims,
      ClaimAdmission admission,
      IdempotencyConfig idempotency,
      Clock clock,
      ClaimDoor door) {
    this.appCheck = appCheck;
    this.claims = claims;
    this.admission = admission;
    this.idempotency = idempotency;
    this.clock = clock;
    this.door = door;
  }

  @Override
  public int getOrder() {
    return FilterOrder.CLAIM_EDGE;
  }

  @Override
  public boolean isEnabled(HttpRequest<?> request) {
    return FilterPaths.isClaim(request);
  }

  /** The first step that answers ends the claim's edge; a claim that none answers is admitted. */
  @RequestFilter
  Publisher<HttpResponse<?>> claim(
      HttpRequest<?> request, FilterContinuation<Publisher<HttpResponse<?>>> rest) {
    Optional<ClaimRequest> found = ClaimRequest.of(request, clock);
    if (found.isEmpty()) {
      return rest.proceed(); // anonymous: refused by the route's security rule
    }
    ClaimRequest claim = found.get();
    return Flux.concat(
            Mono.defer(() -> appCheck(request, claim)),
            Mono.defer(() -> invalidIds(request, claim)),
            Mono.fromRunnable(() -> door.verified(request, claim)),
            Mono.defer(() -> answerWithoutStore(request, claim, rest)),
            Mono.defer(() -> admission.admit(claim, rest::proceed)))
        .next();
  }

  /** 401 without a valid App Check token in {@code enforce} mode; else nothing. */
  private Mono<HttpResponse<?>> appCheck(HttpRequest<?> request, ClaimRequest claim) {
    if (appCheck.mode() == AppCheckMode.OFF) {
      return Mono.empty();
    }
    return Mono.fromFuture(appCheck.verify(request.getHeaders().getAll(APP_CHECK)))
        .flatMap(
            verdict ->
                appCheck.admits(verdict)
                    ? Mono.empty()
                    : Mono.just(
                        ProblemType.APP_CHECK_REQUIRED.response(
                            "claims need a valid Firebase App Check token in the "
                                + APP_CHECK
                                + " header",
                            claim.path())));
  }

  /** 400 for an id that breaks its rules, as the controller would answer; else nothing. */
  private static Mono<HttpResponse<?>> invalidIds(HttpRequest<?> request, ClaimRequest claim) {
    try {
      claim.campaignId();
      claim.userId();
      return Mono.empty();
    } catch (InvalidInputException e) {
      return Mono.just(InvalidInput.response(request, e));
    }
  }

  /**
   * The answer when this instance knows it without the store; else nothing. The refusal of a user
   * who holds coupons, for a claim with an Idempotency-Key, may be a repeat of the claim that gave
   * one: it is admitted as store work is, and the idempotency filter answers it from the key's
   * record, or with the refusal when the key holds nothing ({@link UnlessReplayed}).
   */
  private Mono<HttpResponse<?>> answerWithoutStore(
      HttpRequest<?> request,
      ClaimRequest claim,
      FilterContinuation<Publisher<HttpResponse<?>>> rest) {
    return Mono.fromFuture(
            claims.decideWithoutStore(claim.campaignId(), claim.userId(), claim.arrived()))
        .flatMap(Mono::justOrEmpty)
        .flatMap(
            refusal -> {
              Supplier<HttpResponse<?>> answer =
                  () ->
                      ClaimAnswers.of(
                          claims.answered(claim.campaignId(), refusal, claim.arrived()),
                          claim.campaign(),
                          claim.path());
              if (!refusal.holdsCoupons() || !carriesKey(request)) {
                admission.answeredBefore(claim);
                return Mono.fromSupplier(answer);
              }
              UnlessReplayed.answer(request, answer);
              return admission.admit(claim, rest::proceed);
            });
  }

  /** Whether the request carries an Idempotency-Key that the idempotency filter will look at. */
  private boolean carriesKey(HttpRequest<?> request) {
    return idempotency.enabled() && request.getHeaders().contains(IdempotencyKey.HEADER);
  }
}
