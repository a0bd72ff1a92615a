package flashclaim.http.admin;

import flashclaim.http.problem.ProblemDocs;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;

/**
 * The OpenAPI description of the results routes ({@link ResultsController}), as {@link
 * AdminApiDocs} describes the other admin routes.
 */
final class ResultsApiDocs {
  private ResultsApiDocs() {}

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "Every claim of the campaign, streamed as CSV or NDJSON from one moment of the store (admin)",
      description = "One row per claimed coupon: code, user (the holder's user key: SHA-256 of the user id, hex), claimedAt,"
          + " redemption (claimed or redeemed) and orderId (empty or null unless redeemed), sorted by user. The format"
          + " follows Accept: text/csv (the default; RFC 4180 with the header row code,user,claimedAt,redemption,orderId"
          + " and CRLF line ends) or application/x-ndjson (one JSON object per line). Every row is as the"
          + " store was at Read-At; a failure after the first bytes ends the download without the end of its chunked body.",
      parameters = @Parameter(in = ParameterIn.HEADER, name = "Accept",
          description = "text/csv or application/x-ndjson; text/csv when absent or */*",
          schema = @Schema(type = "string")))
  @ApiResponse(responseCode = "200", description = "OK",
      headers = {
          @Header(name = ResultsController.READ_AT, required = true,
              description = "the moment of the store the rows show (ISO-8601)",
              schema = @Schema(type = "string", format = "date-time")),
          @Header(name = "Content-Disposition", description = "a file name for the download",
              schema = @Schema(type = "string"))},
      content = {
          // no schemas: the NDJSON export of a campaign without claims has no body, which a
          // response with a schema must have
          @Content(mediaType = ExportFormat.CSV_TYPE),
          @Content(mediaType = ExportFormat.NDJSON_TYPE)})
  @ApiResponse(responseCode = "404", ref = ProblemDocs.RESPONSES + "CampaignNotFound")
  @ApiResponse(responseCode = "406", ref = ProblemDocs.RESPONSES + "NotAcceptable")
  @ProblemDocs.AdminRead
  @interface ExportClaims {}

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "The coupons a user holds in the campaign, claimed or redeemed; an empty list when none (admin)",
      parameters = @Parameter(in = ParameterIn.PATH, name = "userId",
          description = "the user id (the token subject), percent-encoded",
          schema = @Schema(type = "string", minLength = 1, maxLength = 512)))
  @ApiResponse(responseCode = "200", description = "OK",
      content = @Content(mediaType = ProblemDocs.JSON, schema = @Schema(implementation = ResultsController.UserClaims.class)))
  @ApiResponse(responseCode = "404", ref = ProblemDocs.RESPONSES + "CampaignNotFound")
  @ProblemDocs.AdminRead
  @interface UserClaims {}

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "A coupon by its code: available, claimed or redeemed, its holder and order (admin)")
  @ApiResponse(responseCode = "200", description = "OK",
      content = @Content(mediaType = ProblemDocs.JSON, schema = @Schema(implementation = ResultsController.CouponView.class)))
  @ApiResponse(responseCode = "404", ref = ProblemDocs.RESPONSES + "CampaignOrCouponNotFound")
  @ProblemDocs.AdminRead
  @interface CouponHolder {}
}
