package flashclaim.http;

import flashclaim.InvalidInputException;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpResponse;
import java.util.List;

/**
 * A value that breaks a domain rule: 400 with the offending field. The answer of a route that
 * throws an {@link InvalidInputException} ({@link ErrorRoutes}) and of the filters that check
 * headers.
 */
final class InvalidInput {
  private InvalidInput() {}

  /** The 400 of a value that breaks a rule. */
  static MutableHttpResponse<Problem> response(HttpRequest<?> request, InvalidInputException e) {
    return ProblemType.INVALID_REQUEST
        .problem(e.getMessage(), request.getPath())
        .withErrors(List.of(new Problem.FieldError(e.field(), e.getMessage())))
        .response();
  }
}
