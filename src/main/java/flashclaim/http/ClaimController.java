package flashclaim.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import flashclaim.campaign.CampaignId;
import flashclaim.claim.Claim;
import flashclaim.claim.ClaimOutcome;
import flashclaim.claim.ClaimService;
import flashclaim.claim.UserId;
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
import java.time.Instant;
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
   * Claims a coupon. The route takes no body: {@link BodyLimitFilter} holds one to {@code
   * flashclaim.http.bodies.default-max-size} (413 above it) and this route ignores it.
   * Its admission, and the ticket of every 503, are {@link ClaimAdmissionFilter}'s; claims whose
   * answer needs no store have already been answered by {@link ClaimShortcutFilter}.
   */
  @ApiDocs.Claim
  @FairlyAdmitted
  @AnsweredFromMemoryFirst
  @Post
  @Consumes(MediaType.ALL)
  HttpResponse<?> claim(@PathVariable String id, Authentication user, HttpRequest<?> request) {
    ClaimOutcome outcome =
        claims.claim(
            new CampaignId(id),
            new UserId(user.getName()),
            LoadShedFilter.admittedAt(request, clock));
    return answer(outcome, id, request.getPath());
  }

  /** The HTTP answer to a claim's outcome (the same whether or not the store was asked). */
  static HttpResponse<?> answer(ClaimOutcome outcome, String id, String path) {
    if (outcome instanceof ClaimOutcome.Claimed claimed) {
      return HttpResponse.created(ClaimView.of(claimed.claim()));
    } else if (outcome instanceof ClaimOutcome.AlreadyHeld held) {
      return HttpResponse.ok(ClaimView.of(held.claim()));
    } else if (outcome instanceof ClaimOutcome.SoldOut) {
      return ProblemType.SOLD_OUT.response("no coupon of this campaign is left", path);
    } else if (outcome instanceof ClaimOutcome.NotOpen notOpen) {
      return CampaignNotOpen.response(notOpen, path);
    } else if (outcome instanceof ClaimOutcome.UnknownCampaign) {
      return CampaignNotFound.response(id, path);
    } else if (outcome instanceof ClaimOutcome.Busy busy) {
      return ProblemType.BUSY.retryLater(
          "coupons remain but none could be taken in time; retry",
          path,
          busy.retryAfter());
    }
    throw new IllegalStateException("unhandled claim outcome " + outcome);
  }

  @ApiDocs.Holdings
  @Get("/me")
  HttpResponse<?> mine(@PathVariable String id, Authentication user, HttpRequest<?> request) {
    return claims
        .holdings(new CampaignId(id), new UserId(user.getName()))
        .<HttpResponse<?>>map(
            held -> HttpResponse.ok(new Holdings(id, held.stream().map(ClaimView::of).toList())))
        .orElseGet(() -> CampaignNotFound.response(id, request.getPath()));
  }

  /** A held coupon as the API shows it. */
  @Serdeable
  record ClaimView(String campaignId, String code, Instant claimedAt) {
    static ClaimView of(Claim claim) {
      return new ClaimView(claim.campaignId().value(), claim.code().value(), claim.claimedAt());
    }
  }

  /** The caller's coupons in a campaign; {@code coupons} is [] when there are none. */
  @Serdeable
  @JsonInclude(JsonInclude.Include.ALWAYS)
  record Holdings(String campaignId, List<ClaimView> coupons) {}
}
