package flashclaim.http.admin;

import com.fasterxml.jackson.annotation.JsonInclude;
import flashclaim.campaign.Campaign;
import flashclaim.campaign.CampaignId;
import flashclaim.dashboard.DashboardService;
import flashclaim.dashboard.LiveClaimCounters;
import flashclaim.dashboard.Outcome;
import flashclaim.http.HttpExecutors;
import flashclaim.http.problem.CampaignNotFound;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.serde.annotation.Serdeable;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * The data of the live dashboard (the page itself is a static resource under {@code /dashboard/}):
 * polled by the page, admin only. Store reads run on the bounded store executor.
 */
@Controller("/v1/admin")
@Secured("admin")
@ExecuteOn(HttpExecutors.STORE)
final class DashboardController {
  /** Campaigns listed by {@code GET /v1/admin/live}, at most. */
  static final int ACTIVE_LIMIT = 50;

  private final DashboardService dashboard;

  DashboardController(DashboardService dashboard) {
    this.dashboard = dashboard;
  }

  @AdminApiDocs.LiveCampaign
  @Get("/campaigns/{id}/live")
  HttpResponse<?> live(@PathVariable String id, HttpRequest<?> request) {
    return dashboard
        .live(new CampaignId(id))
        .<HttpResponse<?>>map(live -> HttpResponse.ok(LiveView.of(live)))
        .orElseGet(() -> CampaignNotFound.response(id, request.getPath()));
  }

  /** Campaigns with claims on this instance: a cheap list for the page's picker, no store read. */
  @AdminApiDocs.ActiveCampaigns
  @Get("/live")
  ActiveView active() {
    return new ActiveView(
        dashboard.active(ACTIVE_LIMIT).stream()
            .map(a -> new ActiveCampaign(a.campaign().value(), a.lastClaimAt()))
            .toList());
  }

  /** Campaigns with claims on this instance, the most recent first. */
  @Serdeable
  @JsonInclude(JsonInclude.Include.ALWAYS)
  record ActiveView(List<ActiveCampaign> campaigns) {}

  /** A campaign with claims on this instance. */
  @Serdeable
  record ActiveCampaign(String id, Instant lastClaimAt) {}

  /** The live figures of a campaign; {@code stock} is store-wide, {@code instance} this instance's. */
  @Serdeable
  record LiveView(
      CampaignInfo campaign,
      StockLive stock,
      InstanceLive instance,
      long rateWindowSeconds,
      long pollIntervalMillis,
      Instant at) {
    static LiveView of(DashboardService.Live live) {
      Campaign c = live.campaign();
      LiveClaimCounters.InstanceFigures figures = live.instance();
      var outcomes = figures.outcomes();
      return new LiveView(
          new CampaignInfo(
              c.id().value(),
              c.name(),
              c.perUserLimit(),
              c.startsAt(),
              c.endsAt(),
              c.windowAt(live.at()).name().toLowerCase(Locale.ROOT).replace('_', '-')),
          new StockLive(
              live.stock().stock().total(),
              live.stock().stock().assigned(),
              live.stock().stock().remaining(),
              live.stock().assignedPerSecond(),
              live.stock().readAt()),
          new InstanceLive(
              figures.claimsPerSecond(),
              figures.assignedPerSecond(),
              new Outcomes(
                  outcomes.get(Outcome.CLAIMED),
                  outcomes.get(Outcome.ALREADY_HELD),
                  outcomes.get(Outcome.SOLD_OUT),
                  outcomes.get(Outcome.NOT_OPEN),
                  outcomes.get(Outcome.BUSY),
                  outcomes.get(Outcome.FAILED)),
              figures.countingSince(),
              figures.lastClaimAt()),
          live.config().rateWindow().toSeconds(),
          live.config().pollInterval().toMillis(),
          live.at());
    }
  }

  /** The campaign; {@code window} is {@code not-started}, {@code open} or {@code ended}. */
  @Serdeable
  record CampaignInfo(
      String id,
      String name,
      int perUserLimit,
      @Nullable Instant startsAt,
      @Nullable Instant endsAt,
      String window) {}

  /** Store-wide stock, read at {@code readAt}, and coupons assigned per second by all instances. */
  @Serdeable
  record StockLive(
      long total,
      long assigned,
      long remaining,
      @Nullable Double assignedPerSecond,
      Instant readAt) {}

  /** This instance's claims of the campaign. */
  @Serdeable
  record InstanceLive(
      double claimsPerSecond,
      double assignedPerSecond,
      Outcomes outcomes,
      @Nullable Instant countingSince,
      @Nullable Instant lastClaimAt) {}

  /** Claims that ended in each outcome on this instance. */
  @Serdeable
  record Outcomes(
      long claimed, long alreadyHeld, long soldOut, long notOpen, long busy, long storeFailed) {}
}
