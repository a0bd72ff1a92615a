package flashclaim.http.claim;

import flashclaim.http.problem.ProblemDocs;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;

/**
 * The OpenAPI description of the user's claim routes ({@link ClaimController}): one annotation per
 * route, applied to its controller method, with its summary, parameters and success answers, and
 * each error answer it can give by the name of a shared response ({@link ProblemDocs}).
 */
final class ClaimApiDocs {
  private ClaimApiDocs() {}

  private static final String TICKET_DOC =
      "Optional. The Flashclaim-Ticket of an earlier 503 of this claim, sent back unchanged: the retry keeps the place of the first click, on any instance. A ticket not valid for the caller and campaign is ignored.";
  private static final String APP_CHECK_DOC =
      "A Firebase App Check token of the app. Checked when flashclaim.app-check.mode is monitor or enforce; in enforce mode a claim without a valid one gets 401 app-check-required.";

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "Claims a coupon for the caller: 201 a new one, 200 the one already held", parameters = {
      @Parameter(in = ParameterIn.HEADER, name = "Idempotency-Key", description = ProblemDocs.IDEMPOTENCY_KEY_DOC, schema = @Schema(type = "string", maxLength = 255)),
      @Parameter(in = ParameterIn.HEADER, name = ClaimAdmission.TICKET, description = TICKET_DOC,
          schema = @Schema(type = "string")),
      @Parameter(in = ParameterIn.HEADER, name = ClaimEdgeFilter.APP_CHECK, description = APP_CHECK_DOC,
          schema = @Schema(type = "string"))})
  @ApiResponse(responseCode = "201", description = "Claimed: a new coupon; to a repeat with its Idempotency-Key, this first answer again (Idempotency-Replayed: true), also once the campaign is paused, ended or sold out",
      content = @Content(mediaType = ProblemDocs.JSON, schema = @Schema(implementation = ClaimAnswers.ClaimView.class)))
  @ApiResponse(responseCode = "200", description = "Already held: the newest coupon of a caller who holds perUserLimit, also while the campaign is paused or has ended",
      content = @Content(mediaType = ProblemDocs.JSON, schema = @Schema(implementation = ClaimAnswers.ClaimView.class)))
  @ApiResponse(responseCode = "400", ref = ProblemDocs.RESPONSES + "BadPost")
  @ApiResponse(responseCode = "401", ref = ProblemDocs.RESPONSES + "UnauthorizedClaim")
  @ApiResponse(responseCode = "403", ref = ProblemDocs.RESPONSES + "CampaignNotOpen")
  @ApiResponse(responseCode = "404", ref = ProblemDocs.RESPONSES + "CampaignNotFound")
  @ApiResponse(responseCode = "409", ref = ProblemDocs.RESPONSES + "Conflict")
  @ApiResponse(responseCode = "410", ref = ProblemDocs.RESPONSES + "SoldOut")
  @ApiResponse(responseCode = "413", ref = ProblemDocs.RESPONSES + "PayloadTooLarge")
  @ApiResponse(responseCode = "422", ref = ProblemDocs.RESPONSES + "IdempotencyKeyReused")
  @ApiResponse(responseCode = "429", ref = ProblemDocs.RESPONSES + "RetryTooSoon")
  @ApiResponse(responseCode = "503", ref = ProblemDocs.RESPONSES + "ClaimUnavailable")
  @SecurityRequirement(name = "bearer")
  @interface Claim {}

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "The caller's coupons in the campaign")
  @ApiResponse(responseCode = "200", description = "OK",
      content = @Content(mediaType = ProblemDocs.JSON, schema = @Schema(implementation = ClaimController.Holdings.class)))
  @ApiResponse(responseCode = "404", ref = ProblemDocs.RESPONSES + "CampaignNotFound")
  @ProblemDocs.Read
  @interface Holdings {}
}
