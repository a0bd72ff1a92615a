package flashclaim.http.problem;

import flashclaim.RetryAfter;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MutableHttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Every problem type the service answers with: the one list of their names, statuses and titles.
 * A problem's {@code type} is {@code urn:flashclaim:problem:<name>}; clients switch on it, never on
 * the title. The OpenAPI spec documents each one, and {@code OpenApiSpecTest} holds its examples to
 * this list.
 *
 * <p>A {@code true} after the title makes the type its status's own ({@link #ofStatus}): the type
 * of an error of that status that nothing more specific names, such as those the framework sends.
 */
public enum ProblemType {
  INVALID_REQUEST("invalid-request", HttpStatus.BAD_REQUEST, "Bad Request", true),
  IDEMPOTENCY_KEY_MISSING(
      "idempotency-key-missing", HttpStatus.BAD_REQUEST, "Idempotency key missing"),
  UNAUTHORIZED("unauthorized", HttpStatus.UNAUTHORIZED, "Unauthorized", true),
  APP_CHECK_REQUIRED("app-check-required", HttpStatus.UNAUTHORIZED, "App Check required"),
  INVALID_SIGNATURE("invalid-signature", HttpStatus.UNAUTHORIZED, "Invalid signature"),
  FORBIDDEN("forbidden", HttpStatus.FORBIDDEN, "Forbidden", true),
  CAMPAIGN_NOT_OPEN("campaign-not-open", HttpStatus.FORBIDDEN, "Campaign not open"),
  CAMPAIGN_PAUSED("campaign-paused", HttpStatus.FORBIDDEN, "Campaign paused"),
  NOT_FOUND("not-found", HttpStatus.NOT_FOUND, "Not Found", true),
  CAMPAIGN_NOT_FOUND("campaign-not-found", HttpStatus.NOT_FOUND, "Campaign not found"),
  COUPON_NOT_FOUND("coupon-not-found", HttpStatus.NOT_FOUND, "Coupon not found"),
  IMPORT_NOT_FOUND("import-not-found", HttpStatus.NOT_FOUND, "Import not found"),
  METHOD_NOT_ALLOWED(
      "method-not-allowed", HttpStatus.METHOD_NOT_ALLOWED, "Method Not Allowed", true),
  NOT_ACCEPTABLE("not-acceptable", HttpStatus.NOT_ACCEPTABLE, "Not Acceptable", true),
  BODY_TIMEOUT("body-timeout", HttpStatus.REQUEST_TIMEOUT, "Body too slow"),
  CAMPAIGN_EXISTS("campaign-exists", HttpStatus.CONFLICT, "Campaign exists"),
  CONCURRENT_MODIFICATION(
      "concurrent-modification", HttpStatus.CONFLICT, "Concurrent modification"),
  IDEMPOTENCY_KEY_IN_USE("idempotency-key-in-use", HttpStatus.CONFLICT, "Idempotency key in use"),
  AMBIGUOUS_CODE("ambiguous-code", HttpStatus.CONFLICT, "Ambiguous code"),
  COUPON_NOT_ASSIGNED("coupon-not-assigned", HttpStatus.CONFLICT, "Coupon not assigned"),
  INVALID_TRANSITION("invalid-transition", HttpStatus.CONFLICT, "Invalid transition"),
  PER_USER_LIMIT_LOCKED(
      "per-user-limit-locked", HttpStatus.CONFLICT, "Per-user limit cannot drop"),
  CAMPAIGN_ENDED("campaign-ended", HttpStatus.CONFLICT, "Campaign ended"),
  SOLD_OUT("sold-out", HttpStatus.GONE, "Sold out"),
  VERSION_MISMATCH("version-mismatch", HttpStatus.PRECONDITION_FAILED, "Version mismatch"),
  PAYLOAD_TOO_LARGE(
      "payload-too-large", HttpStatus.REQUEST_ENTITY_TOO_LARGE, "Payload Too Large", true),
  TOO_MANY_CODES(
      "too-many-codes", HttpStatus.REQUEST_ENTITY_TOO_LARGE, "Too many codes in one request"),
  URI_TOO_LONG("uri-too-long", HttpStatus.REQUEST_URI_TOO_LONG, "URI Too Long", true),
  UNSUPPORTED_MEDIA_TYPE(
      "unsupported-media-type", HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Unsupported Media Type", true),
  IDEMPOTENCY_KEY_REUSED(
      "idempotency-key-reused", HttpStatus.UNPROCESSABLE_ENTITY, "Idempotency key reused"),
  RETRY_TOO_SOON("retry-too-soon", HttpStatus.TOO_MANY_REQUESTS, "Retry too soon"),
  HEADERS_TOO_LARGE(
      "headers-too-large",
      HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
      "Request Header Fields Too Large",
      true),
  INTERNAL_ERROR("internal-error", HttpStatus.INTERNAL_SERVER_ERROR, "Internal Server Error", true),
  BUSY("busy", HttpStatus.SERVICE_UNAVAILABLE, "Busy"),
  OVERLOADED("overloaded", HttpStatus.SERVICE_UNAVAILABLE, "Overloaded"),
  SHUTTING_DOWN("shutting-down", HttpStatus.SERVICE_UNAVAILABLE, "Shutting down"),
  STORE_UNAVAILABLE("store-unavailable", HttpStatus.SERVICE_UNAVAILABLE, "Store unavailable"),
  UNAVAILABLE("unavailable", HttpStatus.SERVICE_UNAVAILABLE, "Service Unavailable", true);

  /** What every problem type starts with. */
  public static final String PREFIX = "urn:flashclaim:problem:";

  private static final Map<HttpStatus, ProblemType> OF_STATUS =
      Arrays.stream(values())
          .filter(t -> t.statusDefault)
          .collect(Collectors.toUnmodifiableMap(ProblemType::status, Function.identity()));

  private final String slug;
  private final HttpStatus status;
  private final String title;
  /** The type of an error of this status that nothing more specific names (the framework's). */
  private final boolean statusDefault;

  ProblemType(String slug, HttpStatus status, String title) {
    this(slug, status, title, false);
  }

  ProblemType(String slug, HttpStatus status, String title, boolean statusDefault) {
    this.slug = slug;
    this.status = status;
    this.title = title;
    this.statusDefault = statusDefault;
  }

  /** The name, as in the type URN and in the spec's example names. */
  public String slug() {
    return slug;
  }

  /** The {@code type} member of its problems. */
  public String uri() {
    return PREFIX + slug;
  }

  public HttpStatus status() {
    return status;
  }

  public String title() {
    return title;
  }

  /** The type of an error of this status that no more specific type names, if the list has one. */
  public static Optional<ProblemType> ofStatus(HttpStatus status) {
    return Optional.ofNullable(OF_STATUS.get(status));
  }

  /** The type whose {@link #uri()} this is, if any. */
  public static Optional<ProblemType> ofUri(String uri) {
    return Arrays.stream(values()).filter(t -> t.uri().equals(uri)).findFirst();
  }

  /** A problem of this type about the request to {@code instance}. */
  public Problem problem(String detail, String instance) {
    return new Problem(uri(), title, status.getCode(), detail, instance, null);
  }

  /** The answer that carries a problem of this type. */
  public MutableHttpResponse<Problem> response(String detail, String instance) {
    return problem(detail, instance).response();
  }

  /**
   * The answer that also tells the client when to come back: Retry-After in whole seconds (at
   * least 1) and {@link Problem#RETRY_AFTER_MS} in milliseconds (at least 1).
   */
  public MutableHttpResponse<Problem> retryLater(String detail, String instance, Duration retryAfter) {
    return response(detail, instance)
        .header(Problem.RETRY_AFTER, Long.toString(RetryAfter.wholeSeconds(retryAfter)))
        .header(Problem.RETRY_AFTER_MS, Long.toString(RetryAfter.millis(retryAfter)));
  }
}
