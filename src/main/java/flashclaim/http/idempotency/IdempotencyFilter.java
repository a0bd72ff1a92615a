package flashclaim.http.idempotency;

import flashclaim.InvalidInputException;
import flashclaim.StoreException;
import flashclaim.http.Callers;
import flashclaim.http.FilterOrder;
import flashclaim.http.FilterPaths;
import flashclaim.http.HttpConfig;
import flashclaim.http.HttpExecutors;
import flashclaim.http.UnlessReplayed;
import flashclaim.http.body.StreamedBody;
import flashclaim.http.problem.InvalidInput;
import flashclaim.http.problem.Problem;
import flashclaim.http.problem.ProblemType;
import flashclaim.http.problem.StoreUnavailable;
import flashclaim.idempotency.Fingerprint;
import flashclaim.idempotency.IdempotencyConfig;
import flashclaim.idempotency.IdempotencyKey;
import flashclaim.idempotency.IdempotencyService;
import flashclaim.idempotency.StoredResponse;
import io.micronaut.context.annotation.Requires;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.order.Ordered;
import io.micronaut.core.util.StringUtils;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.filter.ConditionalFilter;
import io.micronaut.json.JsonMapper;
import io.micronaut.scheduling.annotation.ExecuteOn;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code Idempotency-Key} on POST routes (IETF httpapi draft), around {@link IdempotencyService}.
 *
 * <ul>
 *   <li>Keys are for authenticated callers: an anonymous request (a webhook delivery, or any
 *       request refused for want of a token) runs as if it carried none, and writes nothing.
 *   <li>No key: the request runs as usual, unless its path is one of {@code
 *       flashclaim.idempotency.required-routes} (400 {@code idempotency-key-missing}).
 *   <li>A malformed key (not 1-255 printable ASCII characters, or the header twice): 400 {@code
 *       invalid-request}.
 *   <li>First use: the request runs and its result (status, Content-Type, Location, body) is stored
 *       with the request's {@link Fingerprint}; a repeat gets it back with {@code
 *       Idempotency-Replayed: true}, without running anything (no guard, no controller).
 *   <li>A repeat with another fingerprint: 422 {@code idempotency-key-reused}; while the first is in
 *       flight: 409 {@code idempotency-key-in-use} with Retry-After.
 *   <li>A request marked {@link UnlessReplayed} (the claim edge's refusal of a user who holds
 *       coupons) does not start its key: one read of the record answers what it holds, as above,
 *       and a key that holds nothing gets the marked answer. Nothing is written.
 * </ul>
 *
 * <p>Only a final result is stored ({@link IdempotencyService#isFinal}); for any other (a 5xx, an
 * answer with Retry-After, 401, 403, 404, 422) the in-flight record is deleted instead, so the same
 * key can be retried at once and runs the request again.
 *
 * <p>It runs after authentication, since keys are scoped per caller (the token subject), after
 * {@link BodyLimitFilter} (the body it reads is complete and within its route's limit) and before
 * the modification guard. The body is read here (the framework keeps it for the controller)
 * because the fingerprint covers the raw bytes. So a route that streams its body ({@link
 * StreamedBody}, a file of codes) takes no key: it would have to be held whole, and repeating such
 * an upload is safe by itself.
 */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
@Requires(property = "flashclaim.idempotency.enabled", notEquals = StringUtils.FALSE)
@Requires(beans = IdempotencyService.class)
final class IdempotencyFilter implements Ordered, ConditionalFilter {
  /** The header that marks a replayed result. */
  static final String REPLAYED = "Idempotency-Replayed";

  private static final Logger LOG = LoggerFactory.getLogger(IdempotencyFilter.class);
  private static final String TICKET = IdempotencyFilter.class.getName() + ".ticket";

  private final IdempotencyService idempotency;
  private final IdempotencyConfig config;
  private final HttpConfig http;
  private final JsonMapper json;

  IdempotencyFilter(
      IdempotencyService idempotency,
      IdempotencyConfig config,
      HttpConfig http,
      JsonMapper json) {
    this.idempotency = idempotency;
    this.config = config;
    this.http = http;
    this.json = json;
  }

  @Override
  public int getOrder() {
    return FilterOrder.IDEMPOTENCY;
  }

  /**
   * Only requests with a key and a token, or on a route that requires a key, run this filter: the
   * others pay neither its hop to the store pool nor the wait for their body. (This runs before
   * authentication; whether the token is valid is checked in {@link #start}.)
   */
  @Override
  public boolean isEnabled(HttpRequest<?> request) {
    if (!FilterPaths.isApiPost(request) || StreamedBody.isStreamed(request)) {
      return false;
    }
    HttpHeaders headers = request.getHeaders();
    return (headers.contains(IdempotencyKey.HEADER) && headers.contains(HttpHeaders.AUTHORIZATION))
        || config.requiresKey(request.getPath());
  }

  @RequestFilter
  @ExecuteOn(HttpExecutors.STORE)
  @Nullable
  HttpResponse<?> start(HttpRequest<?> request, @Nullable @Body byte[] body) {
    List<String> headers =
        Callers.isAuthenticated(request)
            ? request.getHeaders().getAll(IdempotencyKey.HEADER)
            : List.of();
    if (headers.isEmpty()) {
      return config.requiresKey(request.getPath()) ? missingKey(request) : null;
    }
    IdempotencyKey key;
    try {
      if (headers.size() > 1) {
        throw new InvalidInputException(IdempotencyKey.HEADER, "give one Idempotency-Key, not several");
      }
      key = IdempotencyKey.fromHeader(headers.get(0));
    } catch (InvalidInputException e) {
      return InvalidInput.response(request, e);
    }
    String caller = request.getUserPrincipal().map(Principal::getName).orElseThrow();
    String fingerprint =
        Fingerprint.of(request.getMethodName(), target(request.getUri()), caller, body);
    return start(request, caller, key, fingerprint);
  }

  @ResponseFilter
  @ExecuteOn(HttpExecutors.STORE)
  void finish(HttpRequest<?> request, MutableHttpResponse<?> response) {
    Optional<IdempotencyService.Ticket> ticket =
        request
            .getAttribute(TICKET, AtomicReference.class)
            .map(t -> (IdempotencyService.Ticket) t.getAndSet(null));
    if (ticket.isEmpty()) {
      return;
    }
    boolean retryLater = response.getHeaders().contains(Problem.RETRY_AFTER);
    try {
      if (!IdempotencyService.isFinal(response.code(), retryLater)) {
        idempotency.abandon(ticket.get());
      } else if (!idempotency.complete(ticket.get(), capture(response))) {
        LOG.warn("{} {} outlived its idempotency record", request.getMethod(), request.getPath());
      }
    } catch (StoreException e) {
      LOG.warn(
          "idempotency record of {} {} not written, it expires after the in-flight timeout: {}",
          request.getMethod(),
          request.getPath(),
          e.getMessage());
    }
  }

  private HttpResponse<?> start(
      HttpRequest<?> request, String caller, IdempotencyKey key, String fingerprint) {
    Optional<Supplier<HttpResponse<?>>> unlessReplayed = UnlessReplayed.of(request);
    IdempotencyService.Start start;
    try {
      if (unlessReplayed.isEmpty()) {
        start = idempotency.start(caller, key, fingerprint);
      } else {
        Optional<IdempotencyService.Start> stored = idempotency.lookUp(caller, key, fingerprint);
        if (stored.isEmpty()) {
          return unlessReplayed.get().get();
        }
        start = stored.get();
      }
    } catch (StoreException e) {
      return StoreUnavailable.response(request, e, http);
    }
    String path = request.getPath();
    if (start instanceof IdempotencyService.Start.Proceed proceed) {
      request.setAttribute(TICKET, new AtomicReference<>(proceed.ticket()));
      return null;
    } else if (start instanceof IdempotencyService.Start.Replay replay) {
      return replay(replay.response());
    } else if (start instanceof IdempotencyService.Start.InFlight inFlight) {
      return ProblemType.IDEMPOTENCY_KEY_IN_USE.retryLater(
          "a request with this Idempotency-Key is still being processed; retry",
          path,
          inFlight.retryAfter());
    } else if (start instanceof IdempotencyService.Start.Mismatch) {
      return ProblemType.IDEMPOTENCY_KEY_REUSED.response(
          "this Idempotency-Key was used for a different request", path);
    }
    throw new IllegalStateException("unhandled idempotency start " + start);
  }

  private static HttpResponse<?> missingKey(HttpRequest<?> request) {
    return ProblemType.IDEMPOTENCY_KEY_MISSING.response(
        "this route requires an Idempotency-Key header", request.getPath());
  }

  private static MutableHttpResponse<?> replay(StoredResponse stored) {
    MutableHttpResponse<Object> response = HttpResponse.status(HttpStatus.valueOf(stored.status()));
    if (stored.location() != null) {
      response.header(HttpHeaders.LOCATION, stored.location());
    }
    if (stored.hasBody() && stored.body().length > 0) {
      if (stored.contentType() != null) {
        response.contentType(stored.contentType());
      }
      response.body(stored.body());
    }
    return response.header(REPLAYED, StringUtils.TRUE);
  }

  /** The result as the client receives it: the body in the bytes the server writes for it. */
  private StoredResponse capture(MutableHttpResponse<?> response) {
    Object body = response.getBody().orElse(null);
    Optional<MediaType> declared = response.getContentType();
    byte[] bytes;
    try {
      if (body == null) {
        bytes = new byte[0];
      } else if (body instanceof byte[] raw) {
        bytes = raw;
      } else if (body instanceof CharSequence text) {
        bytes = text.toString().getBytes(StandardCharsets.UTF_8);
      } else {
        bytes = json.writeValueAsBytes(body);
        declared = declared.or(() -> Optional.of(MediaType.APPLICATION_JSON_TYPE));
      }
    } catch (IOException e) {
      LOG.warn("result of type {} cannot be stored for replay: {}", body.getClass(), e.getMessage());
      bytes = null;
    }
    return new StoredResponse(
        response.code(),
        declared.map(MediaType::toString).orElse(null),
        response.getHeaders().get(HttpHeaders.LOCATION),
        bytes);
  }

  private static String target(URI uri) {
    return uri.getRawQuery() == null ? uri.getRawPath() : uri.getRawPath() + "?" + uri.getRawQuery();
  }
}
