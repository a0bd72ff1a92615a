package flashclaim.http.status;

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
 * The OpenAPI description of the campaign status route ({@link CampaignStatusController}): one
 * annotation per route, applied to its controller method, with its summary, parameters and success
 * answers, and each error answer it can give by the name of a shared response ({@link
 * ProblemDocs}).
 */
final class StatusApiDocs {
  private StatusApiDocs() {}

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "The campaign as an app shows it: phase, window, coupons remaining (at most about a second old)",
      parameters = @Parameter(in = ParameterIn.HEADER, name = "If-None-Match", description = "The ETag of an earlier answer: 304 while it is still current",
          schema = @Schema(type = "string")))
  @ApiResponse(responseCode = "200", description = "OK; cacheable for max-age seconds (Cache-Control), with an ETag",
      headers = {
        @Header(name = "ETag", description = "a weak tag of the answer, without serverTime and remainingAt", required = true, schema = @Schema(type = "string")),
        @Header(name = "Cache-Control", description = "private (or public) with max-age", required = true, schema = @Schema(type = "string"))
      },
      content = @Content(mediaType = ProblemDocs.JSON, schema = @Schema(implementation = CampaignStatusController.StatusView.class)))
  @ApiResponse(responseCode = "304", description = "Not modified: the If-None-Match tag is still current",
      headers = {
        @Header(name = "ETag", description = "the current tag", required = true, schema = @Schema(type = "string")),
        @Header(name = "Cache-Control", description = "as on a 200", required = true, schema = @Schema(type = "string"))
      })
  @ApiResponse(responseCode = "404", ref = ProblemDocs.RESPONSES + "CampaignNotFound")
  @ProblemDocs.Read
  @interface CampaignStatus {}
}
