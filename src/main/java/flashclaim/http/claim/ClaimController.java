package flashclaim.http.claim;

import com.fasterxml.jackson.annotation.JsonInclude;
import flashclaim.campaign.CampaignId;
import flashclaim.claim.ClaimOutcome;
import flashclaim.claim.ClaimService;
import flashclaim.claim.UserId;
import flashclaim.http.Arrival;
import flashclaim.http.ClaimRoute;
import flashclaim.http.HttpExecutors;
import flashclaim.http.problem.CampaignNotFound;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.authentication.Authentication;
import io.micronaut.security.rules.SecurityRule;
import io.micronaut.serde.annotation.Serdeable;
import java.time.Clock;
import java.util.List;

/** The user's routes: claim a coupon, see the coupons held. The user is the token's subject. */
@Controller("/v1/campaigns/{id}/claims")
@Secured(SecurityRule.IS_AUTHENTICATED)
@ExecuteOn(HttpExecutors.STORE)
final class ClaimController {
  private final ClaimService claims;
  private final Clock clock;

  ClaimController(ClaimService claims, Clock clock) {
    this.claims = claims;
    this.clock = clock;
  }

  /**
   * Claims a coupon with the store: the claim has passed its edge ({@link ClaimEdgeFilter}), which
   * answered it if it could without the store and admitted it otherwise. The route takes no body:
   * the body limit holds one to {@code flashclaim.http.bodies.default-max-size} (413 above it) and
   * this route ignores it.
   */
  @ClaimApiDocs.Claim
  @ClaimRoute
  @Post
  @Consumes(MediaType.ALL)
  HttpResponse<?> claim(@PathVariable String id, Authentication user, HttpRequest<?> request) {
    ClaimOutcome outcome =
        claims.claim(
            new CampaignId(id),
            new UserId(user.getName()),
            Arrival.of(request, clock));
    return ClaimAnswers.of(outcome, id, request.getPath());
  }

  @ClaimApiDocs.Holdings
  @Get("/me")
  HttpResponse<?> mine(@PathVariable String id, Authentication user, HttpRequest<?> request) {
    return claims
        .holdings(new CampaignId(id), new UserId(user.getName()))
        .<HttpResponse<?>>map(
            held -> HttpResponse.ok(new Holdings(id, held.stream().map(ClaimAnswers.ClaimView::of).toList())))
        .orElseGet(() -> CampaignNotFound.response(id, request.getPath()));
  }

  /** The caller's coupons in a campaign; {@code coupons} is [] when there are none. */
  @Serdeable
  @JsonInclude(JsonInclude.Include.ALWAYS)
  record Holdings(String campaignId, List<ClaimAnswers.ClaimView> coupons) {}
}
