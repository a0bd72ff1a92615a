package flashclaim.http;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.parameters.RequestBody;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;

/**
 * The OpenAPI description of every route, one annotation per route, applied to its controller
 * method: each status it answers with, and for every error status each problem type (as a named
 * example of {@code application/problem+json}). {@code OpenApiSpecTest} checks the generated spec
 * against the routes and the problem types of the code, so this cannot silently fall behind.
 */
final class ApiDocs {
  private ApiDocs() {}

  static final String PROBLEM_JSON = Problem.MEDIA_TYPE;
  static final String IDEMPOTENCY_KEY_DOC =
      "Optional. The first result is stored and replayed to repeats with the same key and body (IETF httpapi Idempotency-Key draft).";
  static final String TICKET_DOC =
      "Optional. The Flashclaim-Ticket of an earlier 503 of this claim, sent back unchanged: the retry keeps the place of the first click, on any instance. A ticket not valid for the caller and campaign is ignored.";

  static final String INVALID_REQUEST =
      "{\"type\":\"urn:flashclaim:problem:invalid-request\",\"title\":\"Bad Request\",\"status\":400,\"detail\":\"id: must be 1-64 characters of A-Z a-z 0-9 _ -\"}";
  static final String IDEMPOTENCY_KEY_MISSING =
      "{\"type\":\"urn:flashclaim:problem:idempotency-key-missing\",\"title\":\"Idempotency-Key missing\",\"status\":400,\"detail\":\"this route needs an Idempotency-Key header\"}";
  static final String UNAUTHORIZED =
      "{\"type\":\"urn:flashclaim:problem:unauthorized\",\"title\":\"Unauthorized\",\"status\":401,\"detail\":\"Unauthorized\"}";
  static final String INVALID_SIGNATURE =
      "{\"type\":\"urn:flashclaim:problem:invalid-signature\",\"title\":\"Invalid signature\",\"status\":401,\"detail\":\"the signature does not match the body\"}";
  static final String FORBIDDEN =
      "{\"type\":\"urn:flashclaim:problem:forbidden\",\"title\":\"Forbidden\",\"status\":403,\"detail\":\"Forbidden\"}";
  static final String CAMPAIGN_NOT_OPEN =
      "{\"type\":\"urn:flashclaim:problem:campaign-not-open\",\"title\":\"Campaign not open\",\"status\":403,\"detail\":\"the campaign starts at 2026-12-01T10:00:00Z\",\"startsAt\":\"2026-12-01T10:00:00Z\",\"endsAt\":\"2026-12-01T12:00:00Z\"}";
  static final String APP_CHECK_REQUIRED =
      "{\"type\":\"urn:flashclaim:problem:app-check-required\",\"title\":\"App Check required\",\"status\":401,\"detail\":\"claims need a valid Firebase App Check token in the X-Firebase-AppCheck header\"}";
  static final String APP_CHECK_DOC =
      "A Firebase App Check token of the app. Checked when flashclaim.app-check.mode is monitor or enforce; in enforce mode a claim without a valid one gets 401 app-check-required.";
  static final String CAMPAIGN_NOT_FOUND =
      "{\"type\":\"urn:flashclaim:problem:campaign-not-found\",\"title\":\"Campaign not found\",\"status\":404,\"detail\":\"no campaign spring-sale\"}";
  static final String COUPON_NOT_FOUND =
      "{\"type\":\"urn:flashclaim:problem:coupon-not-found\",\"title\":\"Coupon not found\",\"status\":404,\"detail\":\"no campaign has a coupon with this code\"}";
  static final String CAMPAIGN_EXISTS =
      "{\"type\":\"urn:flashclaim:problem:campaign-exists\",\"title\":\"Campaign exists\",\"status\":409,\"detail\":\"a campaign spring-sale exists already\"}";
  static final String CONCURRENT_MODIFICATION =
      "{\"type\":\"urn:flashclaim:problem:concurrent-modification\",\"title\":\"Concurrent modification\",\"status\":409,\"detail\":\"another request is modifying this resource; retry\"}";
  static final String IDEMPOTENCY_KEY_IN_USE =
      "{\"type\":\"urn:flashclaim:problem:idempotency-key-in-use\",\"title\":\"Idempotency-Key in use\",\"status\":409,\"detail\":\"a request with this Idempotency-Key is still being processed; retry\"}";
  static final String AMBIGUOUS_CODE =
      "{\"type\":\"urn:flashclaim:problem:ambiguous-code\",\"title\":\"Ambiguous code\",\"status\":409,\"detail\":\"coupons of several campaigns have this code; give the campaignId\"}";
  static final String COUPON_NOT_ASSIGNED =
      "{\"type\":\"urn:flashclaim:problem:coupon-not-assigned\",\"title\":\"Coupon not assigned\",\"status\":409,\"detail\":\"nobody holds this coupon, so no order can have used it\"}";
  static final String INVALID_TRANSITION =
      "{\"type\":\"urn:flashclaim:problem:invalid-transition\",\"title\":\"Invalid transition\",\"status\":409,\"detail\":\"'cancelled' does not apply to a coupon that is assigned\"}";
  static final String SOLD_OUT =
      "{\"type\":\"urn:flashclaim:problem:sold-out\",\"title\":\"Sold out\",\"status\":410,\"detail\":\"no coupon of this campaign is left\"}";
  static final String PAYLOAD_TOO_LARGE =
      "{\"type\":\"urn:flashclaim:problem:payload-too-large\",\"title\":\"Request Entity Too Large\",\"status\":413,\"detail\":\"The content length exceeds the maximum allowed content length\"}";
  static final String TOO_MANY_CODES =
      "{\"type\":\"urn:flashclaim:problem:too-many-codes\",\"title\":\"Too many codes\",\"status\":413,\"detail\":\"at most 100000 codes in one call\"}";
  static final String UNSUPPORTED_MEDIA_TYPE =
      "{\"type\":\"urn:flashclaim:problem:unsupported-media-type\",\"title\":\"Unsupported Media Type\",\"status\":415,\"detail\":\"Content Type [text/plain] not allowed\"}";
  static final String IDEMPOTENCY_KEY_REUSED =
      "{\"type\":\"urn:flashclaim:problem:idempotency-key-reused\",\"title\":\"Idempotency-Key reused\",\"status\":422,\"detail\":\"this Idempotency-Key was used for a different request\"}";
  static final String BUSY =
      "{\"type\":\"urn:flashclaim:problem:busy\",\"title\":\"Busy\",\"status\":503,\"detail\":\"no coupon could be taken before the deadline; retry\"}";
  static final String OVERLOADED =
      "{\"type\":\"urn:flashclaim:problem:overloaded\",\"title\":\"Overloaded\",\"status\":503,\"detail\":\"this instance is at its limit of concurrent requests; retry later\"}";
  static final String SHUTTING_DOWN =
      "{\"type\":\"urn:flashclaim:problem:shutting-down\",\"title\":\"Shutting down\",\"status\":503,\"detail\":\"this instance is stopping; retry, another instance will answer\"}";
  static final String STORE_UNAVAILABLE =
      "{\"type\":\"urn:flashclaim:problem:store-unavailable\",\"title\":\"Store unavailable\",\"status\":503,\"detail\":\"the store did not answer in time; retry\"}";

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "Creates a campaign (admin)", parameters = @Parameter(in = ParameterIn.HEADER, name = "Idempotency-Key",
      description = IDEMPOTENCY_KEY_DOC, schema = @Schema(type = "string", maxLength = 255)))
  @ApiResponse(responseCode = "201", description = "Created",
      content = @Content(mediaType = "application/json", schema = @Schema(implementation = AdminController.CampaignView.class)))
  @ApiResponse(responseCode = "400", description = "Invalid input (`invalid-request`: body, id or Idempotency-Key malformed), or `idempotency-key-missing`; nothing changed",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "invalid-request", value = INVALID_REQUEST),
        @ExampleObject(name = "idempotency-key-missing", value = IDEMPOTENCY_KEY_MISSING)
      }))
  @ApiResponse(responseCode = "401", description = "No valid credentials: `unauthorized`",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "unauthorized", value = UNAUTHORIZED)
      }))
  @ApiResponse(responseCode = "403", description = "Not allowed: `forbidden`",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "forbidden", value = FORBIDDEN)
      }))
  @ApiResponse(responseCode = "409", description = "Conflict: `campaign-exists`, `concurrent-modification`, `idempotency-key-in-use`",
      headers = @Header(name = "Retry-After", description = "seconds to wait before a retry", schema = @Schema(type = "integer")),
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "campaign-exists", value = CAMPAIGN_EXISTS),
        @ExampleObject(name = "concurrent-modification", value = CONCURRENT_MODIFICATION),
        @ExampleObject(name = "idempotency-key-in-use", value = IDEMPOTENCY_KEY_IN_USE)
      }))
  @ApiResponse(responseCode = "413", description = "Too large: `payload-too-large`",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "payload-too-large", value = PAYLOAD_TOO_LARGE)
      }))
  @ApiResponse(responseCode = "415", description = "The body is not JSON: `unsupported-media-type`",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "unsupported-media-type", value = UNSUPPORTED_MEDIA_TYPE)
      }))
  @ApiResponse(responseCode = "422", description = "Idempotency-Key reused for a different request (`idempotency-key-reused`)",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "idempotency-key-reused", value = IDEMPOTENCY_KEY_REUSED)
      }))
  @ApiResponse(responseCode = "503", description = "Retry after the `Retry-After` header's seconds: `overloaded`, `shutting-down`, `store-unavailable`",
      headers = @Header(name = "Retry-After", description = "seconds to wait before a retry", required = true, schema = @Schema(type = "integer")),
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "overloaded", value = OVERLOADED),
        @ExampleObject(name = "shutting-down", value = SHUTTING_DOWN),
        @ExampleObject(name = "store-unavailable", value = STORE_UNAVAILABLE)
      }))
  @SecurityRequirement(name = "bearer")
  @interface CreateCampaign {}

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "A campaign with its stock (admin)")
  @ApiResponse(responseCode = "200", description = "OK",
      content = @Content(mediaType = "application/json", schema = @Schema(implementation = AdminController.CampaignView.class)))
  @ApiResponse(responseCode = "400", description = "Invalid input (`invalid-request`: body, id or Idempotency-Key malformed); nothing changed",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "invalid-request", value = INVALID_REQUEST)
      }))
  @ApiResponse(responseCode = "401", description = "No valid credentials: `unauthorized`",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "unauthorized", value = UNAUTHORIZED)
      }))
  @ApiResponse(responseCode = "403", description = "Not allowed: `forbidden`",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "forbidden", value = FORBIDDEN)
      }))
  @ApiResponse(responseCode = "404", description = "Not found: `campaign-not-found`",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "campaign-not-found", value = CAMPAIGN_NOT_FOUND)
      }))
  @ApiResponse(responseCode = "503", description = "Retry after the `Retry-After` header's seconds: `overloaded`, `shutting-down`, `store-unavailable`",
      headers = @Header(name = "Retry-After", description = "seconds to wait before a retry", required = true, schema = @Schema(type = "integer")),
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "overloaded", value = OVERLOADED),
        @ExampleObject(name = "shutting-down", value = SHUTTING_DOWN),
        @ExampleObject(name = "store-unavailable", value = STORE_UNAVAILABLE)
      }))
  @SecurityRequirement(name = "bearer")
  @interface GetCampaign {}

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "Live figures of a campaign for the dashboard: store-wide stock, this instance's claims per second and outcomes (admin)")
  @ApiResponse(responseCode = "200", description = "OK",
      content = @Content(mediaType = "application/json", schema = @Schema(implementation = DashboardController.LiveView.class)))
  @ApiResponse(responseCode = "400", description = "Invalid input (`invalid-request`: body, id or Idempotency-Key malformed); nothing changed",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "invalid-request", value = INVALID_REQUEST)
      }))
  @ApiResponse(responseCode = "401", description = "No valid credentials: `unauthorized`",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "unauthorized", value = UNAUTHORIZED)
      }))
  @ApiResponse(responseCode = "403", description = "Not allowed: `forbidden`",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "forbidden", value = FORBIDDEN)
      }))
  @ApiResponse(responseCode = "404", description = "Not found: `campaign-not-found`",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "campaign-not-found", value = CAMPAIGN_NOT_FOUND)
      }))
  @ApiResponse(responseCode = "503", description = "Retry after the `Retry-After` header's seconds: `overloaded`, `shutting-down`, `store-unavailable`",
      headers = @Header(name = "Retry-After", description = "seconds to wait before a retry", required = true, schema = @Schema(type = "integer")),
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "overloaded", value = OVERLOADED),
        @ExampleObject(name = "shutting-down", value = SHUTTING_DOWN),
        @ExampleObject(name = "store-unavailable", value = STORE_UNAVAILABLE)
      }))
  @SecurityRequirement(name = "bearer")
  @interface LiveCampaign {}

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "Campaigns with claims on this instance, most recent first, for the dashboard's picker (admin)")
  @ApiResponse(responseCode = "200", description = "OK",
      content = @Content(mediaType = "application/json", schema = @Schema(implementation = DashboardController.ActiveView.class)))
  @ApiResponse(responseCode = "400", description = "Invalid input (`invalid-request`: body, id or Idempotency-Key malformed); nothing changed",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "invalid-request", value = INVALID_REQUEST)
      }))
  @ApiResponse(responseCode = "401", description = "No valid credentials: `unauthorized`",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "unauthorized", value = UNAUTHORIZED)
      }))
  @ApiResponse(responseCode = "403", description = "Not allowed: `forbidden`",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "forbidden", value = FORBIDDEN)
      }))
  @ApiResponse(responseCode = "503", description = "Retry after the `Retry-After` header's seconds: `overloaded`, `shutting-down`, `store-unavailable`",
      headers = @Header(name = "Retry-After", description = "seconds to wait before a retry", required = true, schema = @Schema(type = "integer")),
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "overloaded", value = OVERLOADED),
        @ExampleObject(name = "shutting-down", value = SHUTTING_DOWN),
        @ExampleObject(name = "store-unavailable", value = STORE_UNAVAILABLE)
      }))
  @SecurityRequirement(name = "bearer")
  @interface ActiveCampaigns {}


  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "Adds coupon codes, given or generated; codes already present are skipped (admin)", parameters = @Parameter(in = ParameterIn.HEADER, name = "Idempotency-Key",
      description = IDEMPOTENCY_KEY_DOC, schema = @Schema(type = "string", maxLength = 255)))
  @ApiResponse(responseCode = "200", description = "OK",
      content = @Content(mediaType = "application/json", schema = @Schema(implementation = AdminController.Added.class)))
  @ApiResponse(responseCode = "400", description = "Invalid input (`invalid-request`: body, id or Idempotency-Key malformed), or `idempotency-key-missing`; nothing changed",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "invalid-request", value = INVALID_REQUEST),
        @ExampleObject(name = "idempotency-key-missing", value = IDEMPOTENCY_KEY_MISSING)
      }))
  @ApiResponse(responseCode = "401", description = "No valid credentials: `unauthorized`",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "unauthorized", value = UNAUTHORIZED)
      }))
  @ApiResponse(responseCode = "403", description = "Not allowed: `forbidden`",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "forbidden", value = FORBIDDEN)
      }))
  @ApiResponse(responseCode = "404", description = "Not found: `campaign-not-found`",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "campaign-not-found", value = CAMPAIGN_NOT_FOUND)
      }))
  @ApiResponse(responseCode = "409", description = "Conflict: `concurrent-modification`, `idempotency-key-in-use`",
      headers = @Header(name = "Retry-After", description = "seconds to wait before a retry", schema = @Schema(type = "integer")),
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "concurrent-modification", value = CONCURRENT_MODIFICATION),
        @ExampleObject(name = "idempotency-key-in-use", value = IDEMPOTENCY_KEY_IN_USE)
      }))
  @ApiResponse(responseCode = "413", description = "Too large: `payload-too-large`, `too-many-codes`",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "payload-too-large", value = PAYLOAD_TOO_LARGE),
        @ExampleObject(name = "too-many-codes", value = TOO_MANY_CODES)
      }))
  @ApiResponse(responseCode = "415", description = "The body is not JSON: `unsupported-media-type`",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "unsupported-media-type", value = UNSUPPORTED_MEDIA_TYPE)
      }))
  @ApiResponse(responseCode = "422", description = "Idempotency-Key reused for a different request (`idempotency-key-reused`)",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "idempotency-key-reused", value = IDEMPOTENCY_KEY_REUSED)
      }))
  @ApiResponse(responseCode = "503", description = "Retry after the `Retry-After` header's seconds: `overloaded`, `shutting-down`, `store-unavailable`",
      headers = @Header(name = "Retry-After", description = "seconds to wait before a retry", required = true, schema = @Schema(type = "integer")),
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "overloaded", value = OVERLOADED),
        @ExampleObject(name = "shutting-down", value = SHUTTING_DOWN),
        @ExampleObject(name = "store-unavailable", value = STORE_UNAVAILABLE)
      }))
  @SecurityRequirement(name = "bearer")
  @interface AddCoupons {}

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "Checks G1, G2 and G5 over the whole campaign (admin)")
  @ApiResponse(responseCode = "200", description = "OK",
      content = @Content(mediaType = "application/json", schema = @Schema(implementation = flashclaim.audit.AuditReport.class)))
  @ApiResponse(responseCode = "400", description = "Invalid input (`invalid-request`: body, id or Idempotency-Key malformed); nothing changed",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "invalid-request", value = INVALID_REQUEST)
      }))
  @ApiResponse(responseCode = "401", description = "No valid credentials: `unauthorized`",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "unauthorized", value = UNAUTHORIZED)
      }))
  @ApiResponse(responseCode = "403", description = "Not allowed: `forbidden`",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "forbidden", value = FORBIDDEN)
      }))
  @ApiResponse(responseCode = "404", description = "Not found: `campaign-not-found`",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "campaign-not-found", value = CAMPAIGN_NOT_FOUND)
      }))
  @ApiResponse(responseCode = "503", description = "Retry after the `Retry-After` header's seconds: `overloaded`, `shutting-down`, `store-unavailable`",
      headers = @Header(name = "Retry-After", description = "seconds to wait before a retry", required = true, schema = @Schema(type = "integer")),
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "overloaded", value = OVERLOADED),
        @ExampleObject(name = "shutting-down", value = SHUTTING_DOWN),
        @ExampleObject(name = "store-unavailable", value = STORE_UNAVAILABLE)
      }))
  @SecurityRequirement(name = "bearer")
  @interface Audit {}

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "Claims a coupon for the caller: 201 a new one, 200 the one already held", parameters = {
      @Parameter(in = ParameterIn.HEADER, name = "Idempotency-Key",
          description = IDEMPOTENCY_KEY_DOC, schema = @Schema(type = "string", maxLength = 255)),
      @Parameter(in = ParameterIn.HEADER, name = ClaimAdmissionFilter.TICKET, description = TICKET_DOC,
          schema = @Schema(type = "string")),
      @Parameter(in = ParameterIn.HEADER, name = "X-Firebase-AppCheck", description = APP_CHECK_DOC,
          schema = @Schema(type = "string"))})
  @RequestBody(required = false, description = "none: a body is read (up to the size limit) and ignored")
  @ApiResponse(responseCode = "201", description = "Claimed: a new coupon",
      content = @Content(mediaType = "application/json", schema = @Schema(implementation = ClaimController.ClaimView.class)))
  @ApiResponse(responseCode = "200", description = "Already held: the coupon the caller holds",
      content = @Content(mediaType = "application/json", schema = @Schema(implementation = ClaimController.ClaimView.class)))
  @ApiResponse(responseCode = "400", description = "Invalid input (`invalid-request`: body, id or Idempotency-Key malformed), or `idempotency-key-missing`; nothing changed",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "invalid-request", value = INVALID_REQUEST),
        @ExampleObject(name = "idempotency-key-missing", value = IDEMPOTENCY_KEY_MISSING)
      }))
  @ApiResponse(responseCode = "401", description = "No valid credentials: `unauthorized`, or no valid App Check token: `app-check-required`; nothing changed",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "unauthorized", value = UNAUTHORIZED),
        @ExampleObject(name = "app-check-required", value = APP_CHECK_REQUIRED)
      }))
  @ApiResponse(responseCode = "403", description = "Not allowed: `campaign-not-open`, with the window (`startsAt`, `endsAt`) for a countdown",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = CampaignNotOpen.class), examples = {
        @ExampleObject(name = "campaign-not-open", value = CAMPAIGN_NOT_OPEN)
      }))
  @ApiResponse(responseCode = "404", description = "Not found: `campaign-not-found`",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "campaign-not-found", value = CAMPAIGN_NOT_FOUND)
      }))
  @ApiResponse(responseCode = "409", description = "Conflict: `concurrent-modification`, `idempotency-key-in-use`",
      headers = @Header(name = "Retry-After", description = "seconds to wait before a retry", schema = @Schema(type = "integer")),
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "concurrent-modification", value = CONCURRENT_MODIFICATION),
        @ExampleObject(name = "idempotency-key-in-use", value = IDEMPOTENCY_KEY_IN_USE)
      }))
  @ApiResponse(responseCode = "410", description = "Gone: `sold-out`",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "sold-out", value = SOLD_OUT)
      }))
  @ApiResponse(responseCode = "413", description = "Too large: `payload-too-large`",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "payload-too-large", value = PAYLOAD_TOO_LARGE)
      }))
  @ApiResponse(responseCode = "422", description = "Idempotency-Key reused for a different request (`idempotency-key-reused`)",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "idempotency-key-reused", value = IDEMPOTENCY_KEY_REUSED)
      }))
  @ApiResponse(responseCode = "503", description = "Retry after the `Retry-After` header's seconds: `busy`, `overloaded`, `shutting-down`, `store-unavailable`",
      headers = {
        @Header(name = "Retry-After", description = "seconds to wait before a retry", required = true, schema = @Schema(type = "integer")),
        @Header(name = ClaimAdmissionFilter.TICKET, description = "the caller's place in line: send it back unchanged with the retry", required = true, schema = @Schema(type = "string"))},
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "busy", value = BUSY),
        @ExampleObject(name = "overloaded", value = OVERLOADED),
        @ExampleObject(name = "shutting-down", value = SHUTTING_DOWN),
        @ExampleObject(name = "store-unavailable", value = STORE_UNAVAILABLE)
      }))
  @SecurityRequirement(name = "bearer")
  @interface Claim {}

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "The caller's coupons in the campaign")
  @ApiResponse(responseCode = "200", description = "OK",
      content = @Content(mediaType = "application/json", schema = @Schema(implementation = ClaimController.Holdings.class)))
  @ApiResponse(responseCode = "400", description = "Invalid input (`invalid-request`: body, id or Idempotency-Key malformed); nothing changed",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "invalid-request", value = INVALID_REQUEST)
      }))
  @ApiResponse(responseCode = "401", description = "No valid credentials: `unauthorized`",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "unauthorized", value = UNAUTHORIZED)
      }))
  @ApiResponse(responseCode = "404", description = "Not found: `campaign-not-found`",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "campaign-not-found", value = CAMPAIGN_NOT_FOUND)
      }))
  @ApiResponse(responseCode = "503", description = "Retry after the `Retry-After` header's seconds: `overloaded`, `shutting-down`, `store-unavailable`",
      headers = @Header(name = "Retry-After", description = "seconds to wait before a retry", required = true, schema = @Schema(type = "integer")),
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "overloaded", value = OVERLOADED),
        @ExampleObject(name = "shutting-down", value = SHUTTING_DOWN),
        @ExampleObject(name = "store-unavailable", value = STORE_UNAVAILABLE)
      }))
  @SecurityRequirement(name = "bearer")
  @interface Holdings {}

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "The campaign as an app shows it: phase, window, coupons remaining (at most about a second old)",
      parameters = @Parameter(in = ParameterIn.HEADER, name = "If-None-Match", description = "The ETag of an earlier answer: 304 while it is still current",
          schema = @Schema(type = "string")))
  @ApiResponse(responseCode = "200", description = "OK; cacheable for max-age seconds (Cache-Control), with an ETag",
      headers = {
        @Header(name = "ETag", description = "a weak tag of the answer, without serverTime", schema = @Schema(type = "string")),
        @Header(name = "Cache-Control", description = "private (or public) with max-age", schema = @Schema(type = "string"))
      },
      content = @Content(mediaType = "application/json", schema = @Schema(implementation = CampaignStatusController.StatusView.class)))
  @ApiResponse(responseCode = "304", description = "Not modified: the If-None-Match tag is still current",
      headers = @Header(name = "ETag", description = "the current tag", schema = @Schema(type = "string")))
  @ApiResponse(responseCode = "400", description = "Invalid input (`invalid-request`: id malformed)",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "invalid-request", value = INVALID_REQUEST)
      }))
  @ApiResponse(responseCode = "401", description = "No valid credentials: `unauthorized`",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "unauthorized", value = UNAUTHORIZED)
      }))
  @ApiResponse(responseCode = "404", description = "Not found: `campaign-not-found`",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "campaign-not-found", value = CAMPAIGN_NOT_FOUND)
      }))
  @ApiResponse(responseCode = "503", description = "Retry after the `Retry-After` header's seconds: `overloaded`, `shutting-down`, `store-unavailable`",
      headers = @Header(name = "Retry-After", description = "seconds to wait before a retry", required = true, schema = @Schema(type = "integer")),
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "overloaded", value = OVERLOADED),
        @ExampleObject(name = "shutting-down", value = SHUTTING_DOWN),
        @ExampleObject(name = "store-unavailable", value = STORE_UNAVAILABLE)
      }))
  @SecurityRequirement(name = "bearer")
  @interface CampaignStatus {}

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(
      summary = "A shop system reports a redemption or a cancellation; the body is signed",
      parameters = {
        @Parameter(in = ParameterIn.HEADER, name = "X-Flashclaim-Signature", required = true,
            description = "t=<unix seconds>,v1=<hex HMAC-SHA256(secret, \"<t>.<body>\")>",
            schema = @Schema(type = "string")),
        @Parameter(in = ParameterIn.HEADER, name = "Idempotency-Key",
            description = IDEMPOTENCY_KEY_DOC, schema = @Schema(type = "string", maxLength = 255))
      })
  @RequestBody(required = true, description = "the event; the signature covers these exact bytes",
      content = @Content(mediaType = "application/json",
          schema = @Schema(implementation = RedemptionWebhookController.Delivery.class)))
  @ApiResponse(responseCode = "200", description = "OK",
      content = @Content(mediaType = "application/json", schema = @Schema(implementation = RedemptionWebhookController.Delivered.class)))
  @ApiResponse(responseCode = "400", description = "Invalid input (`invalid-request`: body, id or Idempotency-Key malformed), or `idempotency-key-missing`; nothing changed",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "invalid-request", value = INVALID_REQUEST),
        @ExampleObject(name = "idempotency-key-missing", value = IDEMPOTENCY_KEY_MISSING)
      }))
  @ApiResponse(responseCode = "401", description = "No valid credentials: `invalid-signature`",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "invalid-signature", value = INVALID_SIGNATURE)
      }))
  @ApiResponse(responseCode = "404", description = "Not found: `coupon-not-found`",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "coupon-not-found", value = COUPON_NOT_FOUND)
      }))
  @ApiResponse(responseCode = "409", description = "Conflict: `ambiguous-code`, `coupon-not-assigned`, `invalid-transition`, `idempotency-key-in-use`",
      headers = @Header(name = "Retry-After", description = "seconds to wait before a retry", schema = @Schema(type = "integer")),
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "ambiguous-code", value = AMBIGUOUS_CODE),
        @ExampleObject(name = "coupon-not-assigned", value = COUPON_NOT_ASSIGNED),
        @ExampleObject(name = "invalid-transition", value = INVALID_TRANSITION),
        @ExampleObject(name = "idempotency-key-in-use", value = IDEMPOTENCY_KEY_IN_USE)
      }))
  @ApiResponse(responseCode = "413", description = "Too large: `payload-too-large`",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "payload-too-large", value = PAYLOAD_TOO_LARGE)
      }))
  @ApiResponse(responseCode = "415", description = "The body is not JSON: `unsupported-media-type`",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "unsupported-media-type", value = UNSUPPORTED_MEDIA_TYPE)
      }))
  @ApiResponse(responseCode = "422", description = "Idempotency-Key reused for a different request (`idempotency-key-reused`)",
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "idempotency-key-reused", value = IDEMPOTENCY_KEY_REUSED)
      }))
  @ApiResponse(responseCode = "503", description = "Retry after the `Retry-After` header's seconds: `busy`, `overloaded`, `shutting-down`, `store-unavailable`",
      headers = @Header(name = "Retry-After", description = "seconds to wait before a retry", required = true, schema = @Schema(type = "integer")),
      content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = Problem.class), examples = {
        @ExampleObject(name = "busy", value = BUSY),
        @ExampleObject(name = "overloaded", value = OVERLOADED),
        @ExampleObject(name = "shutting-down", value = SHUTTING_DOWN),
        @ExampleObject(name = "store-unavailable", value = STORE_UNAVAILABLE)
      }))
  @interface Redemption {}
}
