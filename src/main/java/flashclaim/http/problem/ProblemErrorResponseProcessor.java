package flashclaim.http.problem;

import io.micronaut.context.annotation.Primary;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.server.exceptions.response.ErrorContext;
import io.micronaut.http.server.exceptions.response.ErrorResponseProcessor;
import io.micronaut.http.server.netty.NettyHttpRequest;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Optional;

/**
 * Turns every error the framework produces (unreadable JSON, wrong types, unknown routes, missing
 * or bad tokens, oversized bodies, ...) into a problem+json body, so that clients see one error
 * format whatever failed.
 */
@Primary
@Singleton
final class ProblemErrorResponseProcessor implements ErrorResponseProcessor<Problem> {

  @Override
  public MutableHttpResponse<Problem> processResponse(
      ErrorContext context, MutableHttpResponse<?> base) {
    HttpStatus status = headerTooLong(context).orElse(base.status());
    List<Problem.FieldError> errors =
        context.getErrors().stream()
            .map(e -> new Problem.FieldError(e.getPath().orElse(null), InvalidInput.readable(e.getMessage())))
            .toList();
    String detail =
        errors.stream().map(Problem.FieldError::message).findFirst().orElse(status.getReason());
    Problem problem =
        Problem.ofStatus(
                status,
                status.getCode() >= 500 ? "the request could not be processed" : detail,
                context.getRequest().getPath())
            .withErrors(errors.size() > 1 ? errors : null);
    return base.status(status).contentType(MediaType.of(Problem.MEDIA_TYPE)).body(problem);
  }

  /**
   * 431 for a header section, 414 for a request line over the server's limits. The framework
   * answers both 413, the status of a body too large, since it sees only that the request's
   * decoding failed on something too long.
   */
  private static Optional<HttpStatus> headerTooLong(ErrorContext context) {
    if (!(context.getRequest() instanceof NettyHttpRequest<?> request)) {
      return Optional.empty();
    }
    Throwable cause = request.getNativeRequest().decoderResult().cause();
    if (cause instanceof TooLongHttpHeaderException) {
      return Optional.of(HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE);
    } else if (cause instanceof TooLongHttpLineException) {
      return Optional.of(HttpStatus.REQUEST_URI_TOO_LONG);
    }
    return Optional.empty();
  }
}
