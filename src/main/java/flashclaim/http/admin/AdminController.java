package flashclaim.http.admin;

import com.fasterxml.jackson.annotation.JsonInclude;
import flashclaim.InvalidInputException;
import flashclaim.audit.AuditReport;
import flashclaim.audit.AuditService;
import flashclaim.campaign.Campaign;
import flashclaim.campaign.CampaignChange;
import flashclaim.campaign.CampaignChangeRefused;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CampaignPatch;
import flashclaim.campaign.CampaignService;
import flashclaim.campaign.ChangePage;
import flashclaim.campaign.CodeFile;
import flashclaim.campaign.CodeImports;
import flashclaim.campaign.CodePrefix;
import flashclaim.campaign.CouponCode;
import flashclaim.campaign.CouponStore;
import flashclaim.campaign.ImportId;
import flashclaim.campaign.Stock;
import flashclaim.http.HttpConfig;
import flashclaim.http.HttpExecutors;
import flashclaim.http.body.BodyConfig;
import flashclaim.http.body.StreamedBody;
import flashclaim.http.body.StrictJson;
import flashclaim.http.body.TakesBody;
import flashclaim.http.problem.CampaignNotFound;
import flashclaim.http.problem.InvalidInput;
import flashclaim.http.problem.ProblemType;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.type.Argument;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.Patch;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.annotation.Status;
import io.micronaut.json.JsonMapper;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.authentication.Authentication;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.Hidden;
import io.swagger.v3.oas.annotations.media.Schema;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Admin routes: campaigns (create, list, read, change, their change records), seeding, stock and
 * audit. They need the {@code admin} role.
 */
@Controller("/v1/admin/campaigns")
@Secured("admin")
@TakesBody(TakesBody.Limit.ADMIN)
@ExecuteOn(HttpExecutors.STORE)
final class AdminController {
  /** The media type of a JSON merge patch (RFC 7396); plain JSON is taken too. */
  static final String MERGE_PATCH = "application/merge-patch+json";

  private static final Pattern ENTITY_TAG = Pattern.compile("\"(\\d{1,18})\"");

  private final CampaignService campaigns;
  private final CodeImports imports;
  private final AuditService audits;
  private final JsonMapper json;
  private final Clock clock;
  private final BodyConfig bodies;
  private final HttpConfig http;

  AdminController(
      CampaignService campaigns,
      CodeImports imports,
      AuditService audits,
      JsonMapper json,
      Clock clock,
      BodyConfig bodies,
      HttpConfig http) {
    this.campaigns = campaigns;
    this.imports = imports;
    this.audits = audits;
    this.json = json;
    this.clock = clock;
    this.bodies = bodies;
    this.http = http;
  }

  @AdminApiDocs.ListCampaigns
  @Get
  HttpResponse<?> list(@Nullable @QueryValue String limit, @Nullable @QueryValue String cursor) {
    CampaignService.StockPage page =
        campaigns.list(Pages.limit(limit), Pages.campaignsAfter(cursor));
    Instant now = clock.instant();
    List<CampaignView> views =
        page.campaigns().stream().map(s -> CampaignView.of(s.campaign(), s.stock(), now)).toList();
    return HttpResponse.ok(
        new CampaignList(views, page.next().map(Pages::campaignsCursor).orElse(null)));
  }

  @AdminApiDocs.PatchCampaign
  @Patch("/{id}")
  @Consumes({MERGE_PATCH, MediaType.APPLICATION_JSON})
  HttpResponse<?> patch(
      @PathVariable String id,
      @Nullable @Header(HttpHeaders.IF_MATCH) String ifMatch,
      @Body @Nullable byte[] body,
      Authentication admin,
      HttpRequest<?> request) {
    CampaignId campaign = new CampaignId(id);
    CampaignPatch patch = CampaignPatch.of(campaign, object(body), expectedVersion(ifMatch));
    Optional<Campaign> changed;
    try {
      changed = campaigns.patch(campaign, patch, admin.getName());
    } catch (CampaignChangeRefused refused) {
      ProblemType type =
          switch (refused.reason()) {
            case VERSION_MISMATCH -> ProblemType.VERSION_MISMATCH;
            case LIMIT_LOCKED -> ProblemType.PER_USER_LIMIT_LOCKED;
            case ENDED -> ProblemType.CAMPAIGN_ENDED;
          };
      return type.response(refused.getMessage(), request.getPath());
    }
    if (changed.isEmpty()) {
      return CampaignNotFound.response(id, request.getPath());
    }
    return campaigns
        .stock(campaign)
        .<HttpResponse<?>>map(
            s ->
                HttpResponse.ok(CampaignView.of(changed.get(), s.stock(), clock.instant()))
                    .header(HttpHeaders.ETAG, entityTag(changed.get())))
        .orElseGet(() -> CampaignNotFound.response(id, request.getPath()));
  }

  @AdminApiDocs.CampaignChanges
  @Get("/{id}/changes")
  HttpResponse<?> changes(
      @PathVariable String id,
      @Nullable @QueryValue String limit,
      @Nullable @QueryValue String cursor,
      HttpRequest<?> request) {
    CampaignId campaign = new CampaignId(id);
    Optional<ChangePage> page =
        campaigns.changes(campaign, Pages.limit(limit), Pages.changesBelow(cursor));
    return page.<HttpResponse<?>>map(
            p ->
                HttpResponse.ok(
                    new ChangeList(
                        p.changes().stream().map(ChangeView::of).toList(),
                        p.nextBelow().isPresent()
                            ? Pages.changesCursor(p.nextBelow().getAsLong())
                            : null)))
        .orElseGet(() -> CampaignNotFound.response(id, request.getPath()));
  }

  /** The body as a JSON object, its members as decoded (null kept). */
  private Map<String, Object> object(byte[] body) {
    if (body == null || body.length == 0) {
      throw new InvalidInputException(null, "the body must be a JSON object");
    }
    Object value;
    try {
      value = json.readValue(body, Argument.OBJECT_ARGUMENT);
    } catch (IOException e) {
      String message = InvalidInput.readable(e.getMessage());
      throw new InvalidInputException(
          null, message == null ? "the body is not valid JSON" : message);
    }
    if (!(value instanceof Map<?, ?> members)) {
      throw new InvalidInputException(null, "the body must be a JSON object");
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> object = (Map<String, Object>) members;
    return object;
  }

  /** The version an {@code If-Match} names ({@code "<version>"}, as the ETag gives it). */
  private static OptionalLong expectedVersion(String ifMatch) {
    if (ifMatch == null) {
      return OptionalLong.empty();
    }
    Matcher tag = ENTITY_TAG.matcher(ifMatch.strip());
    if (!tag.matches()) {
      throw new InvalidInputException(
          HttpHeaders.IF_MATCH,
          "If-Match must be the ETag of the campaign, a version in double quotes such as \"3\"");
    }
    return OptionalLong.of(Long.parseLong(tag.group(1)));
  }

  /** The campaign's ETag: its version, in double quotes. */
  static String entityTag(Campaign campaign) {
    return "\"" + campaign.version() + "\"";
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
            CampaignView.of(created.get(), new Stock(0, 0), clock.instant()),
            URI.create("/v1/admin/campaigns/" + id.value()))
        .header(HttpHeaders.ETAG, entityTag(created.get()));
  }

  @AdminApiDocs.GetCampaign
  @Get("/{id}")
  HttpResponse<?> get(@PathVariable String id, HttpRequest<?> request) {
    return campaigns
        .stock(new CampaignId(id))
        .<HttpResponse<?>>map(
            s ->
                HttpResponse.ok(CampaignView.of(s.campaign(), s.stock(), clock.instant()))
                    .header(HttpHeaders.ETAG, entityTag(s.campaign())))
        .orElseGet(() -> CampaignNotFound.response(id, request.getPath()));
  }

  @AdminApiDocs.AddCoupons
  @Post("/{id}/coupons")
  @Consumes(MediaType.APPLICATION_JSON)
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

  /** The header that names an import of codes from a file. */
  static final String IMPORT_ID = "Import-Id";

  /** {@code text/csv}, a CSV file with a header row that names a {@code code} column. */
  static final String CSV = "text/csv";

  /**
   * The file variant of {@link #addCoupons}, left out of the document: {@link
   * AdminApiDocs.AddCoupons} describes both as one operation (the generator would merge two methods
   * on one path and write a null example, which is not a valid body).
   */
  @Hidden
  @Post("/{id}/coupons")
  @Consumes({CSV, MediaType.TEXT_PLAIN})
  @TakesBody(TakesBody.Limit.FILE)
  HttpResponse<?> addCouponsFile(
      @PathVariable String id,
      @Nullable @Header(IMPORT_ID) String importId,
      @Nullable @Body InputStream body,
      HttpRequest<?> request) {
    CampaignId campaign = new CampaignId(id);
    ImportId named = importId == null ? ImportId.random() : new ImportId(importId);
    CodeFile.Format format =
        request.getContentType().map(MediaType::getName).filter(CSV::equalsIgnoreCase).isPresent()
            ? CodeFile.Format.CSV
            : CodeFile.Format.LINES;
    InputStream file =
        StreamedBody.limited(
            body == null ? InputStream.nullInputStream() : body, bodies.fileMaxSize());
    String path = request.getPath();
    CodeImports.Outcome outcome;
    try {
      outcome = imports.run(campaign, named, file, format);
    } catch (StreamedBody.TooLarge e) {
      return e.response(path).header(IMPORT_ID, named.value());
    } catch (IOException e) {
      return ProblemType.INVALID_REQUEST
          .response("the request body could not be read to its end", path)
          .header(IMPORT_ID, named.value());
    }
    if (outcome instanceof CodeImports.Outcome.Done done) {
      return HttpResponse.ok(ImportReport.of(done.report())).header(IMPORT_ID, named.value());
    } else if (outcome instanceof CodeImports.Outcome.UnknownCampaign) {
      return CampaignNotFound.response(id, path);
    } else if (outcome instanceof CodeImports.Outcome.AlreadyRunning) {
      return ProblemType.CONCURRENT_MODIFICATION.retryLater(
          "an import with the Import-Id '" + named + "' is running into this campaign",
          path,
          http.retryAfter());
    }
    return ProblemType.OVERLOADED.retryLater(
        "this instance runs as many imports as it may; retry later", path, http.retryAfter());
  }

  @AdminApiDocs.ImportState
  @Get("/{id}/imports/{importId}")
  HttpResponse<?> importState(
      @PathVariable String id, @PathVariable String importId, HttpRequest<?> request) {
    ImportId named = new ImportId(importId);
    return imports
        .state(new CampaignId(id), named)
        .<HttpResponse<?>>map(p -> HttpResponse.ok(ImportState.of(p)))
        .orElseGet(
            () ->
                ProblemType.IMPORT_NOT_FOUND.response(
                    "this instance knows no import '"
                        + named
                        + "' into campaign '"
                        + id
                        + "': it ran on another instance, or ended more than"
                        + " flashclaim.seeding.files.retention ago",
                    request.getPath()));
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

  /**
   * A campaign with its stock and status: {@code ended} after its window, else {@code paused} while
   * paused, {@code scheduled} before its window, {@code sold-out} within it with no coupon left,
   * else {@code open}. {@code version} is also the ETag of the campaign.
   */
  @Serdeable
  record CampaignView(
      String id,
      String name,
      int perUserLimit,
      @Nullable Instant startsAt,
      @Nullable Instant endsAt,
      Instant createdAt,
      @Schema(allowableValues = {"scheduled", "open", "sold-out", "paused", "ended"}) String status,
      boolean paused,
      long version,
      StockView stock) {
    static CampaignView of(Campaign c, Stock s, Instant now) {
      return new CampaignView(
          c.id().value(),
          c.name(),
          c.perUserLimit(),
          c.startsAt(),
          c.endsAt(),
          c.createdAt(),
          status(c, s, now),
          c.paused(),
          c.version(),
          new StockView(s.total(), s.assigned(), s.remaining()));
    }

    private static String status(Campaign c, Stock s, Instant now) {
      Campaign.Window window = c.windowAt(now);
      if (window == Campaign.Window.ENDED) {
        return "ended";
      } else if (c.paused()) {
        return "paused";
      } else if (window == Campaign.Window.NOT_STARTED) {
        return "scheduled";
      }
      return s.remaining() <= 0 ? "sold-out" : "open";
    }
  }

  /**
   * The members a patch takes (the OpenAPI description of the body; the route reads the body as a
   * JSON object itself, to tell a member given as null from one not given).
   */
  @Serdeable
  @Schema(additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
  record PatchBody(
      @Nullable @Schema(description = "the campaign's own id only: it never changes") String id,
      @Nullable String name,
      @Nullable @Schema(nullable = true, description = "null: open from the start") Instant startsAt,
      @Nullable @Schema(nullable = true, description = "null: never ends") Instant endsAt,
      @Nullable @Schema(minimum = "1", maximum = "100") Integer perUserLimit,
      @Nullable Boolean paused,
      @Nullable @Schema(description = "true to let the patch open an ended campaign again") Boolean reopen) {}

  /** A page of campaigns, newest first; {@code next} is the cursor of the next page, if any. */
  @Serdeable
  record CampaignList(
      @JsonInclude(JsonInclude.Include.ALWAYS) List<CampaignView> campaigns,
      @Nullable String next) {}

  /**
   * A recorded change: who ({@code by}, the admin token's subject), when, the version it made, and
   * the changed fields' values before and after ({@code startsAt}/{@code endsAt} null when
   * open-ended).
   */
  @Serdeable
  record ChangeView(
      long version,
      String by,
      Instant at,
      @Schema(type = "object", additionalProperties = Schema.AdditionalPropertiesValue.TRUE)
          Map<String, Object> before,
      @Schema(type = "object", additionalProperties = Schema.AdditionalPropertiesValue.TRUE)
          Map<String, Object> after) {
    static ChangeView of(CampaignChange change) {
      return new ChangeView(
          change.version(),
          change.by(),
          change.at(),
          json(change.before()),
          json(change.after()));
    }

    /** Instants as ISO-8601 strings, as everywhere in the API. */
    private static Map<String, Object> json(Map<String, Object> values) {
      Map<String, Object> json = new java.util.LinkedHashMap<>();
      values.forEach((k, v) -> json.put(k, v instanceof Instant instant ? instant.toString() : v));
      return json;
    }
  }

  /** A page of changes, newest first; {@code next} is the cursor of the next page, if any. */
  @Serdeable
  record ChangeList(
      @JsonInclude(JsonInclude.Include.ALWAYS) List<ChangeView> changes, @Nullable String next) {}

  /**
   * The report of an import of codes from a file: {@code lines} not blank (nor the CSV header),
   * of which {@code added} new codes, {@code skipped} codes already in the pool or earlier in the
   * file, {@code invalid} without a valid code; the first 100 invalid lines with their numbers.
   */
  @Serdeable
  record ImportReport(
      String importId,
      long lines,
      long added,
      long skipped,
      long invalid,
      @JsonInclude(JsonInclude.Include.ALWAYS) List<InvalidLine> invalidLines) {
    static ImportReport of(CodeImports.Report report) {
      CodeImports.Progress p = report.progress();
      return new ImportReport(
          p.id().value(),
          p.lines(),
          p.added(),
          p.skipped(),
          p.invalid(),
          report.invalidLines().stream()
              .map(l -> new InvalidLine(l.line(), l.reason()))
              .toList());
    }
  }

  /** A line of the file without a valid code: its number (from 1, the header included) and why. */
  @Serdeable
  record InvalidLine(long line, String reason) {}

  /**
   * The state of an import while it runs and for a while after: {@code added} and {@code skipped}
   * count the batches written so far.
   */
  @Serdeable
  record ImportState(
      String importId,
      @Schema(allowableValues = {"running", "done", "failed"}) String state,
      long lines,
      long added,
      long skipped,
      long invalid) {
    static ImportState of(CodeImports.Progress p) {
      return new ImportState(
          p.id().value(),
          p.state().name().toLowerCase(java.util.Locale.ROOT),
          p.lines(),
          p.added(),
          p.skipped(),
          p.invalid());
    }
  }

  /** Counts of the pool. */
  @Serdeable
  record StockView(long total, long assigned, long remaining) {}
}
