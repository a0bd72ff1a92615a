package flashclaim.http.problem;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.serde.annotation.Serdeable;
import java.util.List;

/**
 * An RFC 9457 problem detail, the body of every error. {@code type} is stable: clients switch on
 * it, never on {@code title} or {@code detail}. Types are URNs of the form {@code
 * urn:flashclaim:problem:<name>}; {@link ProblemType} lists them.
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
  public static final String RETRY_AFTER = "Retry-After";

  /**
   * The same wait as Retry-After, in milliseconds (Retry-After counts whole seconds, rounded up): a
   * client that follows it comes back at the turn it was told rather than up to a second later.
   */
  public static final String RETRY_AFTER_MS = "Flashclaim-Retry-After-Ms";

  /** One invalid field of a request. */
  @Serdeable
  public record FieldError(@Nullable String field, String message) {}

  /**
   * The problem of an error that the framework answers with a bare status: the status's type of
   * {@link ProblemType#ofStatus}, or for a status the service never answers on purpose, a type
   * named after its code ({@code http-<code>}) with the status's reason as title.
   */
  public static Problem ofStatus(HttpStatus status, String detail, String instance) {
    return ProblemType.ofStatus(status)
        .map(type -> type.problem(detail, instance))
        .orElseGet(
            () ->
                new Problem(
                    ProblemType.PREFIX + "http-" + status.getCode(),
                    status.getReason(),
                    status.getCode(),
                    detail,
                    instance,
                    null));
  }

  /** This problem with the list of invalid fields. */
  public Problem withErrors(List<FieldError> fieldErrors) {
    return new Problem(type, title, status, detail, instance, fieldErrors);
  }

  /** The response that carries this problem. */
  public MutableHttpResponse<Problem> response() {
    return HttpResponse.<Problem>status(HttpStatus.valueOf(status))
        .contentType(MediaType.of(MEDIA_TYPE))
        .body(this);
  }
}
