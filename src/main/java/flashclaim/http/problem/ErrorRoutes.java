package flashclaim.http.problem;

import flashclaim.InvalidInputException;
import flashclaim.StoreException;
import flashclaim.campaign.TooManyCodesException;
import flashclaim.http.HttpConfig;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Error;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.authentication.AuthorizationException;
import io.micronaut.security.rules.SecurityRule;

/**
 * The answers to the service's own failures: a request refused by authentication (401) or
 * authorization (403), a store that fails or is too slow (503), a value that breaks a rule (400)
 * and too many codes in one seeding call (413). As global error routes they are found in the
 * router's short list of error routes. Micronaut looks an {@link
 * io.micronaut.http.server.exceptions.ExceptionHandler} up among all the beans for every failure
 * (its cache misses on the type-argument qualifier of the lookup): a quarter of the CPU of a 401
 * went there, more than the check that refused the token, and strangers' floods are mostly such
 * failures. The framework's own failures (a body or a path value it cannot read) keep their
 * handlers ({@link UndecodableBodyHandler}, {@link UnreadablePathHandler}).
 *
 * <p>Nothing routes here: the class has error routes only.
 */
@Controller
@Secured(SecurityRule.IS_ANONYMOUS)
final class ErrorRoutes {
  private final HttpConfig config;

  ErrorRoutes(HttpConfig config) {
    this.config = config;
  }

  /**
   * 401 for a request without a valid token, 403 for a caller without the role; the problem body
   * is added by {@link ProblemBodyFilter}, as for any error answer without one.
   */
  @Error(global = true, exception = AuthorizationException.class)
  HttpResponse<?> refused(AuthorizationException e) {
    return HttpResponse.status(e.isForbidden() ? HttpStatus.FORBIDDEN : HttpStatus.UNAUTHORIZED);
  }

  /** 503 with Retry-After: a retry may well succeed. */
  @Error(global = true, exception = StoreException.class)
  HttpResponse<?> storeUnavailable(HttpRequest<?> request, StoreException e) {
    return StoreUnavailable.response(request, e, config);
  }

  /** 400 naming the offending field. */
  @Error(global = true, exception = InvalidInputException.class)
  HttpResponse<?> invalidInput(HttpRequest<?> request, InvalidInputException e) {
    return InvalidInput.response(request, e);
  }

  /** 413: more codes in one seeding call than allowed. */
  @Error(global = true, exception = TooManyCodesException.class)
  HttpResponse<?> tooManyCodes(HttpRequest<?> request, TooManyCodesException e) {
    return ProblemType.TOO_MANY_CODES.response(e.getMessage(), request.getPath());
  }
}
