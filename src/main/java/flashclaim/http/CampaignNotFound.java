package flashclaim.http;

import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;

/** The one 404 of an unknown campaign, shared by every route that takes a campaign id. */
final class CampaignNotFound {
  private CampaignNotFound() {}

  static HttpResponse<Problem> response(String id, String path) {
    return Problem.of(
            HttpStatus.NOT_FOUND,
            "campaign-not-found",
            "Campaign not found",
            "no campaign has the id '" + id + "'",
            path)
        .response();
  }
}
