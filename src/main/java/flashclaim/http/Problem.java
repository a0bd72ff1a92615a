package flashclaim.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.serde.annotation.Serdeable;
import java.time.Duration;
import java.util.List;

/**
 * An RFC 9457 problem detail, the body of every error. {@code type} is stable: clients switch on
 * it, never on {@code title} or {@code detail}. Types are URNs of the form {@code
 * urn:flashclaim:problem:<name>}; the README lists them.
 */
@Serdeable
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(
    String type,
    String title,
    int status,
    @Nullable String detail,
    @Nullable String instance,
    @Nullable List<FieldError> errors) {

  public static final String MEDIA_TYPE = "application/problem+json";
  private static final String TYPE_PREFIX = "urn:flashclaim:problem:";

  /** One invalid field of a request. */
  @Serdeable
  public record FieldError(@Nullable String field, String message) {}

  static Problem of(HttpStatus status, String name, String title, String detail, String instance) {
    return new Problem(TYPE_PREFIX + name, title, status.getCode(), detail, instance, null);
  }

  /** This problem with the list of invalid fields. */
  Problem withErrors(List<FieldError> fieldErrors) {
    return new Problem(type, title, status, detail, instance, fieldErrors);
  }

  /** The response that carries this problem. */
  MutableHttpResponse<Problem> response() {
    return HttpResponse.<Problem>status(HttpStatus.valueOf(status))
        .contentType(MediaType.of(MEDIA_TYPE))
        .body(this);
  }

  /** A 503 that tells the client when to come back. */
  static MutableHttpResponse<Problem> unavailable(
      String name, String title, String detail, String instance, Duration retryAfter) {
    return retryLater(HttpStatus.SERVICE_UNAVAILABLE, name, title, detail, instance, retryAfter);
  }

  /** A problem that tells the client when to come back (whole seconds, at least 1). */
  static MutableHttpResponse<Problem> retryLater(
      HttpStatus status,
      String name,
      String title,
      String detail,
      String instance,
      Duration retryAfter) {
    long seconds = Math.max(1, (retryAfter.toMillis() + 999) / 1000);
    return of(status, name, title, detail, instance)
        .response()
        .header(RETRY_AFTER, Long.toString(seconds));
  }

  static final String RETRY_AFTER = "Retry-After";
}
