package flashclaim.http;

import flashclaim.campaign.TooManyCodesException;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import jakarta.inject.Singleton;

/** More codes in one request than allowed: 413. */
@Singleton
final class TooManyCodesHandler implements ExceptionHandler<TooManyCodesException, HttpResponse<?>> {
  @Override
  public HttpResponse<?> handle(HttpRequest request, TooManyCodesException e) {
    return Problem.of(
            HttpStatus.REQUEST_ENTITY_TOO_LARGE,
            "too-many-codes",
            "Too many codes in one request",
            e.getMessage(),
            request.getPath())
        .response();
  }
}
