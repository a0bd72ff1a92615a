package flashclaim.http;

import flashclaim.InvalidInputException;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import jakarta.inject.Singleton;
import java.util.List;

/** A value that breaks a domain rule: 400 with the offending field. */
@Singleton
final class InvalidInputHandler implements ExceptionHandler<InvalidInputException, HttpResponse<?>> {
  @Override
  public HttpResponse<?> handle(HttpRequest request, InvalidInputException e) {
    return response(request, e);
  }

  /** The 400 of a value that breaks a rule, also for the filters that check headers. */
  static MutableHttpResponse<Problem> response(HttpRequest<?> request, InvalidInputException e) {
    return ProblemType.INVALID_REQUEST
        .problem(e.getMessage(), request.getPath())
        .withErrors(List.of(new Problem.FieldError(e.field(), e.getMessage())))
        .response();
  }
}
