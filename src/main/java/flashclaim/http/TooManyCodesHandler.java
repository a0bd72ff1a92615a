package flashclaim.http;

import flashclaim.campaign.TooManyCodesException;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import jakarta.inject.Singleton;

/** More codes in one request than allowed: 413. */
@Singleton
final class TooManyCodesHandler implements ExceptionHandler<TooManyCodesException, HttpResponse<?>> {
  @Override
  public HttpResponse<?> handle(HttpRequest request, TooManyCodesException e) {
    return ProblemType.TOO_MANY_CODES.response(e.getMessage(), request.getPath());
  }
}
