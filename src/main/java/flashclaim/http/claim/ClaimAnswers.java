package flashclaim.http.claim;

import flashclaim.claim.Claim;
import flashclaim.claim.ClaimOutcome;
import flashclaim.http.problem.CampaignNotFound;
import flashclaim.http.problem.CampaignNotOpen;
import flashclaim.http.problem.ProblemType;
import io.micronaut.http.HttpResponse;
import io.micronaut.serde.annotation.Serdeable;
import java.time.Instant;

/**
 * The HTTP answer to each claim outcome, written once: the same whether the claim edge decided it
 * without the store or the controller decided it with the store.
 */
final class ClaimAnswers {
  private ClaimAnswers() {}

  /** The answer to {@code outcome} of a claim on campaign {@code id} at {@code path}. */
  static HttpResponse<?> of(ClaimOutcome outcome, String id, String path) {
    if (outcome instanceof ClaimOutcome.Claimed claimed) {
      return HttpResponse.created(ClaimView.of(claimed.claim()));
    } else if (outcome instanceof ClaimOutcome.AlreadyHeld held) {
      return HttpResponse.ok(ClaimView.of(held.claim()));
    } else if (outcome instanceof ClaimOutcome.SoldOut) {
      return ProblemType.SOLD_OUT.response("no coupon of this campaign is left", path);
    } else if (outcome instanceof ClaimOutcome.NotOpen notOpen) {
      return CampaignNotOpen.response(notOpen, path);
    } else if (outcome instanceof ClaimOutcome.Paused) {
      return ProblemType.CAMPAIGN_PAUSED.response(
          "the campaign is paused; no coupon is handed out until it is resumed", path);
    } else if (outcome instanceof ClaimOutcome.UnknownCampaign) {
      return CampaignNotFound.response(id, path);
    } else if (outcome instanceof ClaimOutcome.Busy busy) {
      return ProblemType.BUSY.retryLater(
          "coupons remain but none could be taken in time; retry", path, busy.retryAfter());
    }
    throw new IllegalStateException("unhandled claim outcome " + outcome);
  }

  /** A held coupon as the API shows it. */
  @Serdeable
  record ClaimView(String campaignId, String code, Instant claimedAt) {
    static ClaimView of(Claim claim) {
      return new ClaimView(claim.campaignId().value(), claim.code().value(), claim.claimedAt());
    }
  }
}
