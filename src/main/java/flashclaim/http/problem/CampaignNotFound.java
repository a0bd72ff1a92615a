package flashclaim.http.problem;

import io.micronaut.http.HttpResponse;

/** The one 404 of an unknown campaign, shared by every route that takes a campaign id. */
public final class CampaignNotFound {
  private CampaignNotFound() {}

  public static HttpResponse<Problem> response(String id, String path) {
    return ProblemType.CAMPAIGN_NOT_FOUND.response("no campaign has the id '" + id + "'", path);
  }
}
