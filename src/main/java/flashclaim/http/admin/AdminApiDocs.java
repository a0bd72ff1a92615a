package flashclaim.http.admin;

import flashclaim.http.problem.ProblemDocs;
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
 * The OpenAPI description of the admin routes ({@link AdminController}, {@link
 * DashboardController}): one annotation per route, applied to its controller method, with its
 * summary, parameters and success answers, and each error answer it can give by the name of a
 * shared response ({@link ProblemDocs}).
 */
final class AdminApiDocs {
  private AdminApiDocs() {}

  /**
   * The summary of add-coupons, whose JSON and file variants are two methods that the document
   * shows as one operation.
   */
  static final String ADD_COUPONS =
      "Adds coupon codes: given or generated (a JSON body), or read from a file as it streams in"
          + " (text/plain, one code per line; text/csv, with a header row that names a 'code'"
          + " column); codes already present are skipped (admin)";

  /** The description of add-coupons. */
  static final String ADD_COUPONS_DETAIL =
      "A file is up to flashclaim.http.bodies.file-max-size (256 MB by default), UTF-8; a"
          + " byte-order mark and CRLF line ends are tolerated, blank lines ignored, a CSV's other"
          + " columns ignored and its fields may be quoted. Its answer (an import report) comes once"
          + " the whole file is read and added; meanwhile GET"
          + " /v1/admin/campaigns/{id}/imports/{importId}, on the same instance, shows its progress."
          + " Repeating a failed upload is safe: what it added is skipped. A file upload does not"
          + " use an Idempotency-Key: it is repeatable by itself.";

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "Creates a campaign (admin)", parameters =
      @Parameter(in = ParameterIn.HEADER, name = "Idempotency-Key", description = ProblemDocs.IDEMPOTENCY_KEY_DOC, schema = @Schema(type = "string", maxLength = 255)))
  @ApiResponse(responseCode = "201", description = "Created",
      headers = {@Header(name = "Location", description = "the campaign's path", required = true,
          schema = @Schema(type = "string")),
          @Header(name = "ETag", description = "the campaign's version, in double quotes (not on a replay of an Idempotency-Key)",
              schema = @Schema(type = "string"))},
      content = @Content(mediaType = ProblemDocs.JSON, schema = @Schema(implementation = AdminController.CampaignView.class)))
  @ApiResponse(responseCode = "400", ref = ProblemDocs.RESPONSES + "BadPost")
  @ApiResponse(responseCode = "401", ref = ProblemDocs.RESPONSES + "Unauthorized")
  @ApiResponse(responseCode = "403", ref = ProblemDocs.RESPONSES + "Forbidden")
  @ApiResponse(responseCode = "409", ref = ProblemDocs.RESPONSES + "CreateConflict")
  @ApiResponse(responseCode = "413", ref = ProblemDocs.RESPONSES + "PayloadTooLarge")
  @ApiResponse(responseCode = "415", ref = ProblemDocs.RESPONSES + "UnsupportedMediaType")
  @ApiResponse(responseCode = "422", ref = ProblemDocs.RESPONSES + "IdempotencyKeyReused")
  @ApiResponse(responseCode = "503", ref = ProblemDocs.RESPONSES + "Unavailable")
  @SecurityRequirement(name = "bearer")
  @interface CreateCampaign {}

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "A campaign with its status and stock (admin)")
  @ApiResponse(responseCode = "200", description = "OK",
      headers = @Header(name = "ETag", description = "the campaign's version, in double quotes: the If-Match of a change", required = true,
          schema = @Schema(type = "string")),
      content = @Content(mediaType = ProblemDocs.JSON, schema = @Schema(implementation = AdminController.CampaignView.class)))
  @ApiResponse(responseCode = "404", ref = ProblemDocs.RESPONSES + "CampaignNotFound")
  @ProblemDocs.AdminRead
  @interface GetCampaign {}

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "Live figures of a campaign for the dashboard: store-wide stock, this instance's claims per second and outcomes (admin)")
  @ApiResponse(responseCode = "200", description = "OK",
      content = @Content(mediaType = ProblemDocs.JSON, schema = @Schema(implementation = DashboardController.LiveView.class)))
  @ApiResponse(responseCode = "404", ref = ProblemDocs.RESPONSES + "CampaignNotFound")
  @ProblemDocs.AdminRead
  @interface LiveCampaign {}

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "Campaigns with claims on this instance, most recent first, for the dashboard's picker (admin)")
  @ApiResponse(responseCode = "200", description = "OK",
      content = @Content(mediaType = ProblemDocs.JSON, schema = @Schema(implementation = DashboardController.ActiveView.class)))
  @ProblemDocs.AdminRead
  @interface ActiveCampaigns {}

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = ADD_COUPONS, description = ADD_COUPONS_DETAIL,
      requestBody = @RequestBody(required = true, content = {
          @Content(mediaType = ProblemDocs.JSON, schema = @Schema(implementation = AdminController.AddCoupons.class)),
          @Content(mediaType = "text/plain", schema = @Schema(type = "string", format = "binary",
              description = "one code per line")),
          @Content(mediaType = "text/csv", schema = @Schema(type = "string", format = "binary",
              description = "a header row that names a 'code' column, then one row per code"))}),
      parameters = {
          @Parameter(in = ParameterIn.HEADER, name = "Idempotency-Key", description = ProblemDocs.IDEMPOTENCY_KEY_DOC + " Not used on a file.", schema = @Schema(type = "string", maxLength = 255)),
          @Parameter(in = ParameterIn.HEADER, name = "Import-Id",
              description = "a file's import id, 1 to 64 characters of A-Z, a-z, 0-9, '_' or '-'; without it the service makes one. Answered in the Import-Id header",
              schema = @Schema(type = "string", pattern = "^[A-Za-z0-9_-]{1,64}$"))})
  @ApiResponse(responseCode = "200", description = "OK: {added, skipped} for a JSON body, the import report for a file",
      headers = @Header(name = "Import-Id", description = "a file's import id (not on a JSON body)", schema = @Schema(type = "string")),
      content = @Content(mediaType = ProblemDocs.JSON, schema = @Schema(anyOf = {AdminController.Added.class, AdminController.ImportReport.class})))
  @ApiResponse(responseCode = "400", ref = ProblemDocs.RESPONSES + "BadPost")
  @ApiResponse(responseCode = "401", ref = ProblemDocs.RESPONSES + "Unauthorized")
  @ApiResponse(responseCode = "403", ref = ProblemDocs.RESPONSES + "Forbidden")
  @ApiResponse(responseCode = "404", ref = ProblemDocs.RESPONSES + "CampaignNotFound")
  @ApiResponse(responseCode = "409", ref = ProblemDocs.RESPONSES + "Conflict")
  @ApiResponse(responseCode = "413", ref = ProblemDocs.RESPONSES + "TooManyCodes")
  @ApiResponse(responseCode = "415", ref = ProblemDocs.RESPONSES + "UnsupportedMediaType")
  @ApiResponse(responseCode = "422", ref = ProblemDocs.RESPONSES + "IdempotencyKeyReused")
  @ApiResponse(responseCode = "503", ref = ProblemDocs.RESPONSES + "Unavailable")
  @SecurityRequirement(name = "bearer")
  @interface AddCoupons {}

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "The state of an import of codes from a file, while it runs and for flashclaim.seeding.files.retention after; kept by the instance that runs it (admin)")
  @ApiResponse(responseCode = "200", description = "OK",
      content = @Content(mediaType = ProblemDocs.JSON, schema = @Schema(implementation = AdminController.ImportState.class)))
  @ApiResponse(responseCode = "404", ref = ProblemDocs.RESPONSES + "ImportNotFound")
  @ProblemDocs.AdminRead
  @interface ImportState {}

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "Checks G1, G2 and G5 over the whole campaign (admin)")
  @ApiResponse(responseCode = "200", description = "OK",
      content = @Content(mediaType = ProblemDocs.JSON, schema = @Schema(implementation = flashclaim.audit.AuditReport.class)))
  @ApiResponse(responseCode = "404", ref = ProblemDocs.RESPONSES + "CampaignNotFound")
  @ProblemDocs.AdminRead
  @interface Audit {}

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "Campaigns, newest first, each with its status and stock, a page at a time (admin)", parameters = {
      @Parameter(in = ParameterIn.QUERY, name = "limit", description = "campaigns per page, 1 to 100; 20 when absent",
          schema = @Schema(type = "integer", minimum = "1", maximum = "100")),
      @Parameter(in = ParameterIn.QUERY, name = "cursor", description = "the `next` of the page before; the first page without it",
          schema = @Schema(type = "string"))})
  @ApiResponse(responseCode = "200", description = "OK",
      content = @Content(mediaType = ProblemDocs.JSON, schema = @Schema(implementation = AdminController.CampaignList.class)))
  @ProblemDocs.AdminRead
  @interface ListCampaigns {}

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "Changes a campaign: name, startsAt, endsAt, perUserLimit, paused, as a JSON merge patch; recorded with who and when (admin)", parameters =
      @Parameter(in = ParameterIn.HEADER, name = "If-Match", description = "Optional. The campaign's ETag (its version in double quotes): the change applies only to that version, else 412 version-mismatch",
          schema = @Schema(type = "string")),
      requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = {
          @Content(mediaType = AdminController.MERGE_PATCH, schema = @Schema(implementation = AdminController.PatchBody.class)),
          @Content(mediaType = ProblemDocs.JSON, schema = @Schema(implementation = AdminController.PatchBody.class))}))
  @ApiResponse(responseCode = "200", description = "The campaign after the change (unchanged when the patch changes nothing)",
      headers = @Header(name = "ETag", description = "the campaign's version, in double quotes", required = true,
          schema = @Schema(type = "string")),
      content = @Content(mediaType = ProblemDocs.JSON, schema = @Schema(implementation = AdminController.CampaignView.class)))
  @ApiResponse(responseCode = "400", ref = ProblemDocs.RESPONSES + "BadRequest")
  @ApiResponse(responseCode = "401", ref = ProblemDocs.RESPONSES + "Unauthorized")
  @ApiResponse(responseCode = "403", ref = ProblemDocs.RESPONSES + "Forbidden")
  @ApiResponse(responseCode = "404", ref = ProblemDocs.RESPONSES + "CampaignNotFound")
  @ApiResponse(responseCode = "409", ref = ProblemDocs.RESPONSES + "ChangeConflict")
  @ApiResponse(responseCode = "412", ref = ProblemDocs.RESPONSES + "VersionMismatch")
  @ApiResponse(responseCode = "413", ref = ProblemDocs.RESPONSES + "PayloadTooLarge")
  @ApiResponse(responseCode = "415", ref = ProblemDocs.RESPONSES + "UnsupportedMediaType")
  @ApiResponse(responseCode = "503", ref = ProblemDocs.RESPONSES + "Unavailable")
  @SecurityRequirement(name = "bearer")
  @interface PatchCampaign {}

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "The recorded changes of a campaign, newest first, a page at a time (admin)", parameters = {
      @Parameter(in = ParameterIn.QUERY, name = "limit", description = "changes per page, 1 to 100; 20 when absent",
          schema = @Schema(type = "integer", minimum = "1", maximum = "100")),
      @Parameter(in = ParameterIn.QUERY, name = "cursor", description = "the `next` of the page before; the first page without it",
          schema = @Schema(type = "string"))})
  @ApiResponse(responseCode = "200", description = "OK",
      content = @Content(mediaType = ProblemDocs.JSON, schema = @Schema(implementation = AdminController.ChangeList.class)))
  @ApiResponse(responseCode = "404", ref = ProblemDocs.RESPONSES + "CampaignNotFound")
  @ProblemDocs.AdminRead
  @interface CampaignChanges {}
}
