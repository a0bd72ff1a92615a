package flashclaim.http;

import io.micronaut.context.annotation.Primary;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.server.exceptions.response.Error;
import io.micronaut.http.server.exceptions.response.ErrorContext;
import io.micronaut.http.server.exceptions.response.ErrorResponseProcessor;
import jakarta.inject.Singleton;
import java.util.List;

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
    HttpStatus status = base.status();
    List<Problem.FieldError> errors =
        context.getErrors().stream()
            .map(e -> new Problem.FieldError(e.getPath().orElse(null), e.getMessage()))
            .toList();
    String detail =
        context.getErrors().stream().map(Error::getMessage).findFirst().orElse(status.getReason());
    Problem problem =
        Problem.of(
                status,
                name(status),
                status.getReason(),
                status.getCode() >= 500 ? "the request could not be processed" : detail,
                context.getRequest().getPath())
            .withErrors(errors.size() > 1 ? errors : null);
    return base.contentType(MediaType.of(Problem.MEDIA_TYPE)).body(problem);
  }

  private static String name(HttpStatus status) {
    return switch (status) {
      case BAD_REQUEST -> "invalid-request";
      case UNAUTHORIZED -> "unauthorized";
      case FORBIDDEN -> "forbidden";
      case NOT_FOUND -> "not-found";
      case METHOD_NOT_ALLOWED -> "method-not-allowed";
      case NOT_ACCEPTABLE -> "not-acceptable";
      case REQUEST_ENTITY_TOO_LARGE -> "payload-too-large";
      case UNSUPPORTED_MEDIA_TYPE -> "unsupported-media-type";
      case SERVICE_UNAVAILABLE -> "unavailable";
      default -> status.getCode() >= 500 ? "internal-error" : "http-" + status.getCode();
    };
  }
}
