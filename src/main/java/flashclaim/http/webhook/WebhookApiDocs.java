package flashclaim.http.webhook;

import flashclaim.http.problem.ProblemDocs;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.parameters.RequestBody;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;

/**
 * The OpenAPI description of the redemption webhook ({@link RedemptionWebhookController}): one
 * annotation per route, applied to its controller method, with its summary, parameters and success
 * answers, and each error answer it can give by the name of a shared response ({@link
 * ProblemDocs}).
 */
final class WebhookApiDocs {
  private WebhookApiDocs() {}

  /** The route's statuses and problem types. */
  @Retention(RetentionPolicy.RUNTIME)
  @Operation(summary = "A shop system reports a redemption or a cancellation; the body is signed", parameters = {
      @Parameter(in = ParameterIn.HEADER, name = "Idempotency-Key", description = ProblemDocs.IDEMPOTENCY_KEY_DOC, schema = @Schema(type = "string", maxLength = 255))})
  @RequestBody(required = true, description = "the event; the signature covers these exact bytes",
      content = @Content(mediaType = ProblemDocs.JSON, schema = @Schema(implementation = RedemptionWebhookController.Delivery.class)))
  @ApiResponse(responseCode = "200", description = "OK",
      content = @Content(mediaType = ProblemDocs.JSON, schema = @Schema(implementation = RedemptionWebhookController.Delivered.class)))
  @ApiResponse(responseCode = "400", ref = ProblemDocs.RESPONSES + "BadPost")
  @ApiResponse(responseCode = "401", ref = ProblemDocs.RESPONSES + "InvalidSignature")
  @ApiResponse(responseCode = "404", ref = ProblemDocs.RESPONSES + "CouponNotFound")
  @ApiResponse(responseCode = "409", ref = ProblemDocs.RESPONSES + "RedemptionConflict")
  @ApiResponse(responseCode = "413", ref = ProblemDocs.RESPONSES + "PayloadTooLarge")
  @ApiResponse(responseCode = "415", ref = ProblemDocs.RESPONSES + "UnsupportedMediaType")
  @ApiResponse(responseCode = "422", ref = ProblemDocs.RESPONSES + "IdempotencyKeyReused")
  @ApiResponse(responseCode = "503", ref = ProblemDocs.RESPONSES + "RedemptionUnavailable")
  @SecurityRequirement(name = "signature")
  @interface Redemption {}
}
