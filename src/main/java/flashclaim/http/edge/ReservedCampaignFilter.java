package flashclaim.http.edge;

import flashclaim.campaign.CampaignId;
import flashclaim.http.FilterOrder;
import flashclaim.http.FilterPaths;
import flashclaim.http.problem.CampaignNotFound;
import flashclaim.startup.WarmUpPass;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;

/**
 * The service's own campaigns ({@link CampaignId#isReserved()}, the start-up warm-up's scratch
 * campaign) do not exist for anyone else: any API request whose path names one after a {@code
 * campaigns} segment (claims, holdings, status, every admin route of a campaign, present or
 * future) is answered 404 {@code campaign-not-found} before load shedding, authentication or any
 * route sees it, unless it carries the warm-up's {@link WarmUpPass} while the warm-up runs. The
 * path is canonical here ({@link CanonicalPathFilter} comes first), so the id is spelled as
 * written.
 */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
final class ReservedCampaignFilter implements Ordered {
  private static final String CAMPAIGNS = "/campaigns/";

  private final WarmUpPass pass;

  ReservedCampaignFilter(WarmUpPass pass) {
    this.pass = pass;
  }

  @Override
  public int getOrder() {
    return FilterOrder.RESERVED_CAMPAIGN;
  }

  @RequestFilter
  @Nullable
  HttpResponse<?> check(HttpRequest<?> request) {
    if (!FilterPaths.isApi(request)) {
      return null;
    }
    String id = reservedId(request.getPath());
    if (id == null || pass.admits(request.getHeaders().get(WarmUpPass.HEADER))) {
      return null;
    }
    return CampaignNotFound.response(id, request.getPath());
  }

  /** The reserved campaign id the path names after a {@code campaigns} segment, or null. */
  @Nullable
  static String reservedId(String path) {
    for (int at = path.indexOf(CAMPAIGNS); at >= 0; at = path.indexOf(CAMPAIGNS, at + 1)) {
      int start = at + CAMPAIGNS.length();
      int end = path.indexOf('/', start);
      String segment = end < 0 ? path.substring(start) : path.substring(start, end);
      if (CampaignId.isReserved(segment)) {
        return segment;
      }
    }
    return null;
  }
}
