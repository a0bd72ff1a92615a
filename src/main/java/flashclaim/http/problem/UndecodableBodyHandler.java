package flashclaim.http.problem;

import flashclaim.InvalidInputException;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import io.netty.handler.codec.compression.DecompressionException;
import jakarta.inject.Singleton;

/**
 * A body that its {@code Content-Encoding} cannot decode (a "gzip" body that is not gzip): 400, as
 * any other malformed body. The framework decodes bodies before any route sees them.
 */
@Singleton
final class UndecodableBodyHandler
    implements ExceptionHandler<DecompressionException, HttpResponse<?>> {
  @Override
  public HttpResponse<?> handle(HttpRequest request, DecompressionException e) {
    return InvalidInput.response(
        request,
        new InvalidInputException(
            "Content-Encoding", "the body cannot be decoded as its Content-Encoding says"));
  }
}
