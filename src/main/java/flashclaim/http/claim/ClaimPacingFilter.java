package flashclaim.http.claim;

import flashclaim.admission.ClaimPacing;
import flashclaim.http.ClaimRoute;
import flashclaim.http.FilterOrder;
import flashclaim.http.FilterPaths;
import flashclaim.http.problem.Problem;
import flashclaim.http.problem.ProblemType;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.filter.ConditionalFilter;
import io.micronaut.http.filter.FilterContinuation;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;

/**
 * Pacing of the claim route ({@link ClaimRoute}), before authentication: a claim that comes back
 * sooner than the Retry-After of the 503 its caller was given for the same campaign is answered at
 * once 429 {@code retry-too-soon}, with the time left as Retry-After and the caller's {@value
 * ClaimAdmission#TICKET} echoed back, from memory ({@link ClaimPacing}): no token verification, no
 * App Check, no admission slot, no store work. The answer is held for the wait the caller has left
 * (at most {@code flashclaim.admission.pacing.hold-too-soon}), without a thread: a client that
 * retries in a tight loop gains nothing over one that waits as told, and sends about as many
 * claims, each costing a hash, a lookup and a timer.
 *
 * <p>The caller is its {@code Authorization} header as sent, so a retry is known before the token
 * is checked; a forged token was never answered 503 (authentication refuses it first), so it is
 * never remembered and meets authentication as before. Every 503 with Retry-After that a claim gets
 * ({@code overloaded}, {@code busy}, {@code store-unavailable}, {@code shutting-down}) is
 * remembered here, on its way out, from the whole seconds the header says.
 */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
final class ClaimPacingFilter implements Ordered, ConditionalFilter {
  private static final String KEY = ClaimPacingFilter.class.getName() + ".key";
  /** The request's {@link ClaimPacing#digest}, for the steps after this one. */
  static final String DIGEST = ClaimPacingFilter.class.getName() + ".digest";

  private final ClaimPacing pacing;

  ClaimPacingFilter(ClaimPacing pacing) {
    this.pacing = pacing;
  }

  @Override
  public int getOrder() {
    return FilterOrder.CLAIM_PACING;
  }

  @Override
  public boolean isEnabled(HttpRequest<?> request) {
    return pacing.enabled() && FilterPaths.isClaim(request);
  }

  /**
   * 429 for a caller that was told to wait and has not, once held for the wait it has left ({@link
   * ClaimPacing#tooSoon}); else the rest of the request.
   */
  @RequestFilter
  Publisher<HttpResponse<?>> tooSoon(
      HttpRequest<?> request, FilterContinuation<Publisher<HttpResponse<?>>> rest) {
    String credentials = request.getHeaders().get(HttpHeaders.AUTHORIZATION);
    if (credentials == null) {
      return rest.proceed(); // anonymous: refused by the route's security rule
    }
    byte[] digest = ClaimPacing.digest(credentials, request.getPath());
    long key = ClaimPacing.key(digest);
    request.setAttribute(KEY, key);
    request.setAttribute(DIGEST, digest);
    Optional<CompletableFuture<Duration>> early = pacing.tooSoon(key);
    if (early.isEmpty()) {
      return rest.proceed();
    }
    List<String> tickets = request.getHeaders().getAll(ClaimAdmission.TICKET);
    return Mono.fromFuture(early.get(), true)
        .map(left -> tooSoon(request.getPath(), left, tickets));
  }

  /**
   * The 429 {@code retry-too-soon} of a claim at {@code path} that must wait {@code left} more,
   * with the caller's ticket echoed when it sent one.
   */
  static MutableHttpResponse<Problem> tooSoon(String path, Duration left, List<String> tickets) {
    MutableHttpResponse<Problem> response =
        ProblemType.RETRY_TOO_SOON.retryLater(
            "this claim was told to retry after the Retry-After of its last 503 and came back"
                + " sooner; retry after this Retry-After, with the same Flashclaim-Ticket",
            path,
            left);
    if (tickets.size() == 1) {
      response.header(ClaimAdmission.TICKET, tickets.get(0));
    }
    return response;
  }

  /** Remembers a 503 with Retry-After: the caller is told to wait that long. */
  @ResponseFilter
  void remember(HttpRequest<?> request, HttpResponse<?> response) {
    if (response.code() != 503) {
      return;
    }
    request.getAttribute(KEY, Long.class).ifPresent(key -> remember(pacing, key, response));
  }

  /** Remembers that the caller of {@code key} was answered {@code response}, a 503. */
  static void remember(ClaimPacing pacing, long key, HttpResponse<?> response) {
    // the wait in milliseconds when the answer has it (the service's own refusals do), else the
    // whole seconds of Retry-After
    String millis = response.getHeaders().get(Problem.RETRY_AFTER_MS);
    String seconds = response.getHeaders().get(Problem.RETRY_AFTER);
    try {
      if (millis != null) {
        pacing.toldToWait(key, Duration.ofMillis(Long.parseLong(millis.trim())));
      } else if (seconds != null) {
        pacing.toldToWait(key, Duration.ofSeconds(Long.parseLong(seconds.trim())));
      }
    } catch (NumberFormatException e) {
      // an HTTP date or garbage: the service sends neither; nothing to remember
    }
  }
}
