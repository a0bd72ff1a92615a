package flashclaim.http;

import io.micronaut.context.annotation.Primary;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
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
            .map(e -> new Problem.FieldError(e.getPath().orElse(null), readable(e.getMessage())))
            .toList();
    String detail =
        errors.stream().map(Problem.FieldError::message).findFirst().orElse(status.getReason());
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

  /**
   * The framework's message without what only concerns the server: the chain of "Failed to
   * convert argument ... due to:" wrappers, the parser's source location, Java type names.
   */
  static String readable(String message) {
    if (message == null) {
      return null;
    }
    String text = message;
    int cause = text.lastIndexOf(DUE_TO);
    if (cause >= 0) {
      text = text.substring(cause + DUE_TO.length());
    }
    int location = text.indexOf("\n at [Source");
    if (location >= 0) {
      text = text.substring(0, location);
    }
    return JAVA_TYPE.matcher(text).replaceAll("a value").trim();
  }

  private static final String DUE_TO = "due to: ";
  private static final java.util.regex.Pattern JAVA_TYPE =
      java.util.regex.Pattern.compile("`?\\b(?:java|io|com|org|flashclaim)\\.[\\w.$]+`?");

  /** The problem type name of an error status without a more specific one. */
  static String name(HttpStatus status) {
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
