package flashclaim.http.problem;

import io.micronaut.openapi.annotation.OpenAPIExtraSchema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;

/**
 * What the OpenAPI description of every route shares: the problem schemas, where the shared error
 * answers are, and the errors of any read. The shared responses (for each status the problem types
 * it carries, with an example of each) are declared once, in {@code
 * src/main/openapi/problems.yml}, which the build merges into the spec; each route's own
 * annotation sits beside its controller. {@code OpenApiSpecTest} checks the spec against the
 * routes, the problems the code answers and {@link ProblemType}, so it cannot silently fall behind.
 */
@OpenAPIExtraSchema({Problem.class, CampaignNotOpen.class})
public final class ProblemDocs {
  private ProblemDocs() {}

  /** The media type of the success bodies. */
  public static final String JSON = "application/json";

  /** Where the shared error answers are: {@code src/main/openapi/problems.yml}. */
  public static final String RESPONSES = "#/components/responses/";

  /** The description of the optional {@code Idempotency-Key} header of POST routes. */
  public static final String IDEMPOTENCY_KEY_DOC =
      "Optional. The first result is stored and replayed to repeats with the same key and body (IETF httpapi Idempotency-Key draft), marked Idempotency-Replayed: true; a result whose body is larger than flashclaim.idempotency.max-stored-body is replayed without it.";

  /** The errors of a route that a signed-in caller reads. */
  @Retention(RetentionPolicy.RUNTIME)
  @ApiResponse(responseCode = "400", ref = RESPONSES + "BadRequest")
  @ApiResponse(responseCode = "401", ref = RESPONSES + "Unauthorized")
  @ApiResponse(responseCode = "503", ref = RESPONSES + "Unavailable")
  @SecurityRequirement(name = "bearer")
  public @interface Read {}

  /** The errors of a route that an admin reads: those of any read, and 403 for a caller without the role. */
  @Retention(RetentionPolicy.RUNTIME)
  @ApiResponse(responseCode = "403", ref = RESPONSES + "Forbidden")
  @Read
  public @interface AdminRead {}
}
