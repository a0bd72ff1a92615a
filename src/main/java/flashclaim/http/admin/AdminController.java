package flashclaim.http.admin;

import flashclaim.InvalidInputException;
import flashclaim.audit.AuditReport;
import flashclaim.audit.AuditService;
import flashclaim.campaign.Campaign;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CampaignService;
import flashclaim.campaign.CodePrefix;
import flashclaim.campaign.CouponCode;
import flashclaim.campaign.CouponStore;
import flashclaim.campaign.Stock;
import flashclaim.http.HttpExecutors;
import flashclaim.http.body.StrictJson;
import flashclaim.http.body.TakesBody;
import flashclaim.http.problem.CampaignNotFound;
import flashclaim.http.problem.ProblemType;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Status;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Admin routes: campaigns, seeding, stock and audit. They need the {@code admin} role. */
@Controller("/v1/admin/campaigns")
@Secured("admin")
@TakesBody(TakesBody.Limit.ADMIN)
@ExecuteOn(HttpExecutors.STORE)
final class AdminController {
  private final CampaignService campaigns;
  private final AuditService audits;

  AdminController(CampaignService campaigns, AuditService audits) {
    this.campaigns = campaigns;
    this.audits = audits;
  }

  @AdminApiDocs.CreateCampaign
  @Post
  @Status(HttpStatus.CREATED)
  HttpResponse<?> create(@Body CreateCampaign body, HttpRequest<?> request) {
    CampaignId id = new CampaignId(body.id());
    Optional<Campaign> created =
        campaigns.create(id, body.name(), body.perUserLimit(), body.startsAt(), body.endsAt());
    if (created.isEmpty()) {
      return ProblemType.CAMPAIGN_EXISTS.response(
          "a campaign with the id '" + id + "' exists already", request.getPath());
    }
    return HttpResponse.created(
        CampaignView.of(created.get(), new Stock(0, 0)),
        URI.create("/v1/admin/campaigns/" + id.value()));
  }

  @AdminApiDocs.GetCampaign
  @Get("/{id}")
  HttpResponse<?> get(@PathVariable String id, HttpRequest<?> request) {
    return campaigns
        .stock(new CampaignId(id))
        .<HttpResponse<?>>map(s -> HttpResponse.ok(CampaignView.of(s.campaign(), s.stock())))
        .orElseGet(() -> CampaignNotFound.response(id, request.getPath()));
  }

  @AdminApiDocs.AddCoupons
  @Post("/{id}/coupons")
  HttpResponse<?> addCoupons(
      @PathVariable String id, @Body AddCoupons body, HttpRequest<?> request) {
    CampaignId campaign = new CampaignId(id);
    if ((body.codes() == null) == (body.generate() == null)) {
      throw new InvalidInputException("codes", "give either 'codes' or 'generate', not both");
    }
    Optional<CouponStore.AddResult> result;
    if (body.codes() != null) {
      List<CouponCode> codes = new ArrayList<>(body.codes().size());
      for (String code : body.codes()) {
        codes.add(new CouponCode(code));
      }
      result = campaigns.addCodes(campaign, codes);
    } else {
      Generate generate = body.generate();
      if (generate.count() == null) {
        throw new InvalidInputException("generate.count", "generate.count is required");
      }
      CodePrefix prefix =
          generate.prefix() == null ? CodePrefix.NONE : new CodePrefix(generate.prefix());
      result = campaigns.generate(campaign, generate.count(), prefix);
    }
    return result
        .<HttpResponse<?>>map(r -> HttpResponse.ok(new Added(r.added(), r.skipped())))
        .orElseGet(() -> CampaignNotFound.response(id, request.getPath()));
  }

  @AdminApiDocs.Audit
  @Get("/{id}/audit")
  HttpResponse<?> audit(@PathVariable String id, HttpRequest<?> request) {
    Optional<AuditReport> report = audits.audit(new CampaignId(id));
    return report
        .<HttpResponse<?>>map(HttpResponse::ok)
        .orElseGet(() -> CampaignNotFound.response(id, request.getPath()));
  }

  /** Body of campaign creation. */
  @Serdeable
  record CreateCampaign(
      @Nullable @Serdeable.Deserializable(using = StrictJson.Text.class) String id,
      @Nullable @Serdeable.Deserializable(using = StrictJson.Text.class) String name,
      @Nullable @Serdeable.Deserializable(using = StrictJson.WholeNumber.class) Integer perUserLimit,
      @Nullable @Serdeable.Deserializable(using = StrictJson.Timestamp.class) Instant startsAt,
      @Nullable @Serdeable.Deserializable(using = StrictJson.Timestamp.class) Instant endsAt) {}

  /** Body of add-coupons: either given codes or a number of codes to generate. */
  @Serdeable
  record AddCoupons(
      @Nullable @Serdeable.Deserializable(using = StrictJson.TextList.class) List<String> codes,
      @Nullable @Schema(type = "object", nullable = true) Generate generate) {}

  /** Generate {@code count} codes of the form prefix + 12 random characters. */
  @Serdeable
  record Generate(
      @Nullable @Serdeable.Deserializable(using = StrictJson.WholeNumber.class) Integer count,
      @Nullable @Serdeable.Deserializable(using = StrictJson.Text.class) String prefix) {}

  /** Result of add-coupons. */
  @Serdeable
  record Added(long added, long skipped) {}

  /** A campaign with its stock. */
  @Serdeable
  record CampaignView(
      String id,
      String name,
      int perUserLimit,
      @Nullable Instant startsAt,
      @Nullable Instant endsAt,
      Instant createdAt,
      StockView stock) {
    static CampaignView of(Campaign c, Stock s) {
      return new CampaignView(
          c.id().value(),
          c.name(),
          c.perUserLimit(),
          c.startsAt(),
          c.endsAt(),
          c.createdAt(),
          new StockView(s.total(), s.assigned(), s.remaining()));
    }
  }

  /** Counts of the pool. */
  @Serdeable
  record StockView(long total, long assigned, long remaining) {}
}
