package flashclaim.http;

import io.micronaut.openapi.annotation.OpenAPIExtraSchema;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.parameters.RequestBody;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;

/**
 * The OpenAPI description of every route, one annotation per route, applied to its controller
 * method: its summary, parameters and success answers, and each error answer it can give by the
 * name of a shared response. The shared responses (for each status the problem types it carries,
 * with an example of each) are declared once, in {@code src/main/openapi/problems.yml}, which the
 * build merges into the spec. {@code OpenApiSpecTest} checks the spec against the routes, the
 * problems the code answers and {@link ProblemType}, so this cannot silently fall behind.
 */
@OpenAPIExtraSchema({Problem.class, CampaignNotOpen.class})
final class ApiDocs {
  private ApiDocs() {}

  private static final String JSON = "application/json";
  /** Where the shared error answers are: {@code src/main/openapi/problems.yml}. */
  private static final String R = "#/components/responses/";

  private static final String IDEMPOTENCY_KEY_DOC =
      "Optional. The first result is stored and replayed to repeats with the same key and body (IETF httpapi Idempotency-Key draft).";
  private static final String TICKET_DOC =
      "Optional. The Flashclaim-Ticket of an earlier 503 of this claim, sent back unchanged: the retry keeps the place of the first click, on any instance. A ticket not valid for the caller and campaign is ignored.";
  private static final String APP_CHECK_DOC =
      "A Firebase App Check token of the app. Checked when flashclaim.app-check.mode is monitor or enforce; in enforce mode a claim without a valid one gets 401 app-check-required.";

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "Creates a campaign (admin)", parameters =
      @Parameter(in = ParameterIn.HEADER, name = "Idempotency-Key", description = IDEMPOTENCY_KEY_DOC, schema = @Schema(type = "string", maxLength = 255)))
  @ApiResponse(responseCode = "201", description = "Created",
      content = @Content(mediaType = JSON, schema = @Schema(implementation = AdminController.CampaignView.class)))
  @ApiResponse(responseCode = "400", ref = R + "BadPost")
  @ApiResponse(responseCode = "401", ref = R + "Unauthorized")
  @ApiResponse(responseCode = "403", ref = R + "Forbidden")
  @ApiResponse(responseCode = "409", ref = R + "CreateConflict")
  @ApiResponse(responseCode = "413", ref = R + "PayloadTooLarge")
  @ApiResponse(responseCode = "415", ref = R + "UnsupportedMediaType")
  @ApiResponse(responseCode = "422", ref = R + "IdempotencyKeyReused")
  @ApiResponse(responseCode = "503", ref = R + "Unavailable")
  @SecurityRequirement(name = "bearer")
  @interface CreateCampaign {}

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "A campaign with its stock (admin)")
  @ApiResponse(responseCode = "200", description = "OK",
      content = @Content(mediaType = JSON, schema = @Schema(implementation = AdminController.CampaignView.class)))
  @ApiResponse(responseCode = "404", ref = R + "CampaignNotFound")
  @AdminRead
  @interface GetCampaign {}

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "Live figures of a campaign for the dashboard: store-wide stock, this instance's claims per second and outcomes (admin)")
  @ApiResponse(responseCode = "200", description = "OK",
      content = @Content(mediaType = JSON, schema = @Schema(implementation = DashboardController.LiveView.class)))
  @ApiResponse(responseCode = "404", ref = R + "CampaignNotFound")
  @AdminRead
  @interface LiveCampaign {}

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "Campaigns with claims on this instance, most recent first, for the dashboard's picker (admin)")
  @ApiResponse(responseCode = "200", description = "OK",
      content = @Content(mediaType = JSON, schema = @Schema(implementation = DashboardController.ActiveView.class)))
  @AdminRead
  @interface ActiveCampaigns {}

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "Adds coupon codes, given or generated; codes already present are skipped (admin)", parameters =
      @Parameter(in = ParameterIn.HEADER, name = "Idempotency-Key", description = IDEMPOTENCY_KEY_DOC, schema = @Schema(type = "string", maxLength = 255)))
  @ApiResponse(responseCode = "200", description = "OK",
      content = @Content(mediaType = JSON, schema = @Schema(implementation = AdminController.Added.class)))
  @ApiResponse(responseCode = "400", ref = R + "BadPost")
  @ApiResponse(responseCode = "401", ref = R + "Unauthorized")
  @ApiResponse(responseCode = "403", ref = R + "Forbidden")
  @ApiResponse(responseCode = "404", ref = R + "CampaignNotFound")
  @ApiResponse(responseCode = "409", ref = R + "Conflict")
  @ApiResponse(responseCode = "413", ref = R + "TooManyCodes")
  @ApiResponse(responseCode = "415", ref = R + "UnsupportedMediaType")
  @ApiResponse(responseCode = "422", ref = R + "IdempotencyKeyReused")
  @ApiResponse(responseCode = "503", ref = R + "Unavailable")
  @SecurityRequirement(name = "bearer")
  @interface AddCoupons {}

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "Checks G1, G2 and G5 over the whole campaign (admin)")
  @ApiResponse(responseCode = "200", description = "OK",
      content = @Content(mediaType = JSON, schema = @Schema(implementation = flashclaim.audit.AuditReport.class)))
  @ApiResponse(responseCode = "404", ref = R + "CampaignNotFound")
  @AdminRead
  @interface Audit {}

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "Claims a coupon for the caller: 201 a new one, 200 the one already held", parameters = {
      @Parameter(in = ParameterIn.HEADER, name = "Idempotency-Key", description = IDEMPOTENCY_KEY_DOC, schema = @Schema(type = "string", maxLength = 255)),
      @Parameter(in = ParameterIn.HEADER, name = ClaimAdmissionFilter.TICKET, description = TICKET_DOC,
          schema = @Schema(type = "string")),
      @Parameter(in = ParameterIn.HEADER, name = AppCheckFilter.HEADER, description = APP_CHECK_DOC,
          schema = @Schema(type = "string"))})
  @RequestBody(required = false, description = "none: a body is read (up to the size limit) and ignored")
  @ApiResponse(responseCode = "201", description = "Claimed: a new coupon",
      content = @Content(mediaType = JSON, schema = @Schema(implementation = ClaimController.ClaimView.class)))
  @ApiResponse(responseCode = "200", description = "Already held: the coupon the caller holds",
      content = @Content(mediaType = JSON, schema = @Schema(implementation = ClaimController.ClaimView.class)))
  @ApiResponse(responseCode = "400", ref = R + "BadPost")
  @ApiResponse(responseCode = "401", ref = R + "UnauthorizedClaim")
  @ApiResponse(responseCode = "403", ref = R + "CampaignNotOpen")
  @ApiResponse(responseCode = "404", ref = R + "CampaignNotFound")
  @ApiResponse(responseCode = "409", ref = R + "Conflict")
  @ApiResponse(responseCode = "410", ref = R + "SoldOut")
  @ApiResponse(responseCode = "413", ref = R + "PayloadTooLarge")
  @ApiResponse(responseCode = "422", ref = R + "IdempotencyKeyReused")
  @ApiResponse(responseCode = "503", ref = R + "ClaimUnavailable")
  @SecurityRequirement(name = "bearer")
  @interface Claim {}

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "The caller's coupons in the campaign")
  @ApiResponse(responseCode = "200", description = "OK",
      content = @Content(mediaType = JSON, schema = @Schema(implementation = ClaimController.Holdings.class)))
  @ApiResponse(responseCode = "404", ref = R + "CampaignNotFound")
  @Read
  @interface Holdings {}

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "The campaign as an app shows it: phase, window, coupons remaining (at most about a second old)",
      parameters = @Parameter(in = ParameterIn.HEADER, name = "If-None-Match", description = "The ETag of an earlier answer: 304 while it is still current",
          schema = @Schema(type = "string")))
  @ApiResponse(responseCode = "200", description = "OK; cacheable for max-age seconds (Cache-Control), with an ETag",
      headers = {
        @Header(name = "ETag", description = "a weak tag of the answer, without serverTime and remainingAt", schema = @Schema(type = "string")),
        @Header(name = "Cache-Control", description = "private (or public) with max-age", schema = @Schema(type = "string"))
      },
      content = @Content(mediaType = JSON, schema = @Schema(implementation = CampaignStatusController.StatusView.class)))
  @ApiResponse(responseCode = "304", description = "Not modified: the If-None-Match tag is still current",
      headers = @Header(name = "ETag", description = "the current tag", schema = @Schema(type = "string")))
  @ApiResponse(responseCode = "404", ref = R + "CampaignNotFound")
  @Read
  @interface CampaignStatus {}

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "A shop system reports a redemption or a cancellation; the body is signed", parameters = {
      @Parameter(in = ParameterIn.HEADER, name = "X-Flashclaim-Signature", required = true,
          description = "t=<unix seconds>,v1=<hex HMAC-SHA256(secret, \"<t>.<body>\")>", schema = @Schema(type = "string")),
      @Parameter(in = ParameterIn.HEADER, name = "Idempotency-Key", description = IDEMPOTENCY_KEY_DOC, schema = @Schema(type = "string", maxLength = 255))})
  @RequestBody(required = true, description = "the event; the signature covers these exact bytes",
      content = @Content(mediaType = JSON, schema = @Schema(implementation = RedemptionWebhookController.Delivery.class)))
  @ApiResponse(responseCode = "200", description = "OK",
      content = @Content(mediaType = JSON, schema = @Schema(implementation = RedemptionWebhookController.Delivered.class)))
  @ApiResponse(responseCode = "400", ref = R + "BadPost")
  @ApiResponse(responseCode = "401", ref = R + "InvalidSignature")
  @ApiResponse(responseCode = "404", ref = R + "CouponNotFound")
  @ApiResponse(responseCode = "409", ref = R + "RedemptionConflict")
  @ApiResponse(responseCode = "413", ref = R + "PayloadTooLarge")
  @ApiResponse(responseCode = "415", ref = R + "UnsupportedMediaType")
  @ApiResponse(responseCode = "422", ref = R + "IdempotencyKeyReused")
  @ApiResponse(responseCode = "503", ref = R + "RedemptionUnavailable")
  @interface Redemption {}

  /** The errors of a route that a signed-in caller reads. */
  @Retention(RetentionPolicy.RUNTIME)
  @ApiResponse(responseCode = "400", ref = R + "BadRequest")
  @ApiResponse(responseCode = "401", ref = R + "Unauthorized")
  @ApiResponse(responseCode = "503", ref = R + "Unavailable")
  @SecurityRequirement(name = "bearer")
  @interface Read {}

  /** The errors of a route that an admin reads: those of any read, and 403 for a caller without the role. */
  @Retention(RetentionPolicy.RUNTIME)
  @ApiResponse(responseCode = "403", ref = R + "Forbidden")
  @Read
  @interface AdminRead {}
}
