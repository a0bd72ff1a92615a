package flashclaim.http.admin;

import com.fasterxml.jackson.annotation.JsonInclude;
import flashclaim.InvalidInputException;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CouponCode;
import flashclaim.claim.UserId;
import flashclaim.http.HttpConfig;
import flashclaim.http.HttpExecutors;
import flashclaim.http.problem.CampaignNotFound;
import flashclaim.http.problem.ProblemType;
import flashclaim.http.problem.Refusals;
import flashclaim.results.ClaimExport;
import flashclaim.results.CouponRecord;
import flashclaim.results.ResultsConfig;
import flashclaim.results.ResultsService;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpMethod;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.json.JsonMapper;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.inject.Named;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * A campaign's results for operators (admin only): the export of every claim, streamed as CSV or
 * NDJSON from one moment of the store, and the support look-ups, a user's claims and a code's
 * holder.
 */
@Controller("/v1/admin/campaigns")
@Secured("admin")
@ExecuteOn(HttpExecutors.STORE)
final class ResultsController {
  /** The header that says which moment of the store an export shows. */
  static final String READ_AT = "Read-At";

  private static final Logger LOG = LoggerFactory.getLogger(ResultsController.class);

  private final ResultsService results;
  private final JsonMapper json;
  private final int chunkBytes;
  private final HttpConfig http;
  /** Where an export reads the store and writes its chunks: the bounded store executor. */
  private final Scheduler store;

  ResultsController(
      ResultsService results,
      JsonMapper json,
      ResultsConfig config,
      HttpConfig http,
      @Named(HttpExecutors.STORE) ExecutorService store) {
    this.results = results;
    this.json = json;
    this.chunkBytes = config.chunkBytes();
    this.http = http;
    this.store = Schedulers.fromExecutorService(store);
  }

  @ResultsApiDocs.ExportClaims
  // Any Accept reaches the route, which chooses the format itself (the framework knows no text/*)
  @Get(value = "/{id}/claims", produces = MediaType.ALL)
  HttpResponse<?> export(@PathVariable String id, HttpRequest<?> request) {
    CampaignId campaign = new CampaignId(id);
    ExportFormat format =
        ExportFormat.negotiate(request.getHeaders().getAll(HttpHeaders.ACCEPT)).orElse(null);
    if (format == null) {
      return ProblemType.NOT_ACCEPTABLE.response(
          "the export is text/csv or application/x-ndjson; the Accept header takes neither",
          request.getPath());
    }
    ResultsService.ExportOutcome outcome = results.export(campaign);
    if (outcome instanceof ResultsService.ExportOutcome.NoCampaign) {
      return CampaignNotFound.response(id, request.getPath());
    }
    if (outcome instanceof ResultsService.ExportOutcome.TooMany) {
      return Refusals.overloaded(request.getPath(), http.retryAfter());
    }
    ClaimExport export = ((ResultsService.ExportOutcome.Opened) outcome).export();
    Instant readAt = export.readAt();
    Object body;
    if (request.getMethod() == HttpMethod.HEAD) {
      export.close(); // the headers are all a HEAD gets: nothing to stream
      body = null;
    } else {
      ExportWriter writer = new ExportWriter(export, format, json, chunkBytes);
      try {
        writer.start();
      } catch (RuntimeException e) {
        writer.close();
        throw e;
      }
      body = stream(campaign, writer);
    }
    return HttpResponse.ok(body)
        .contentType(format.contentType())
        .header(READ_AT, readAt.toString())
        .header(HttpHeaders.CACHE_CONTROL, "no-store")
        .header(
            HttpHeaders.CONTENT_DISPOSITION,
            "attachment; filename=\"" + id + "-claims." + format.extension() + "\"");
  }

  /**
   * The chunks of the export as the connection asks for them, each read and written on the store
   * executor; the read ends (its store connection or query given back) after the last chunk, on a
   * failure, or when the client goes away. A failure after the first chunk can no longer change
   * the status: the connection is closed without the end of the chunked body, so the client sees
   * the download fail rather than end short.
   */
  private Flux<byte[]> stream(CampaignId campaign, ExportWriter writer) {
    return Flux.<byte[], ExportWriter>generate(
            () -> writer,
            (w, sink) -> {
              try {
                w.emit(sink);
              } catch (RuntimeException e) {
                LOG.warn("The export of campaign {} failed while streaming: {}", campaign, e.toString());
                sink.error(e);
              }
              return w;
            },
            ExportWriter::close)
        .subscribeOn(store);
  }

  @ResultsApiDocs.UserClaims
  @Get("/{id}/users/{userId}/claims")
  HttpResponse<?> userClaims(
      @PathVariable String id, @PathVariable String userId, HttpRequest<?> request) {
    CampaignId campaign = new CampaignId(id);
    UserId user;
    try {
      user = new UserId(userId);
    } catch (InvalidInputException e) {
      throw new InvalidInputException(
          "userId", "the user id must be 1 to 512 characters of well-formed Unicode");
    }
    return results
        .claimsOf(campaign, user)
        .<HttpResponse<?>>map(
            claims ->
                HttpResponse.ok(
                    new UserClaims(
                        user.value(),
                        user.key(),
                        claims.stream().map(UserClaim::of).toList())))
        .orElseGet(() -> CampaignNotFound.response(id, request.getPath()));
  }

  @ResultsApiDocs.CouponHolder
  @Get("/{id}/coupons/{code}")
  HttpResponse<?> coupon(@PathVariable String id, @PathVariable String code, HttpRequest<?> request) {
    CampaignId campaign = new CampaignId(id);
    CouponCode coupon;
    try {
      coupon = new CouponCode(code);
    } catch (InvalidInputException e) {
      throw new InvalidInputException("code", e.getMessage());
    }
    ResultsService.CouponLookup lookup = results.coupon(campaign, coupon);
    if (lookup instanceof ResultsService.CouponLookup.Found found) {
      return HttpResponse.ok(CouponView.of(found.coupon()));
    }
    if (lookup instanceof ResultsService.CouponLookup.NoCampaign) {
      return CampaignNotFound.response(id, request.getPath());
    }
    return ProblemType.COUPON_NOT_FOUND.response(
        "campaign '" + id + "' has no coupon with the code '" + code + "'", request.getPath());
  }

  /**
   * A user's claims in a campaign: {@code user} as asked, {@code userKey} as the export names the
   * user (SHA-256 of the id, hex), and the coupons, empty when none.
   */
  @Serdeable
  record UserClaims(
      String user,
      @Schema(description = "SHA-256 of the user id, as 64 hex characters: the export's user")
          String userKey,
      @JsonInclude(JsonInclude.Include.ALWAYS) List<UserClaim> claims) {}

  /** A coupon the user holds; {@code orderId} is null unless redeemed. */
  @Serdeable
  @JsonInclude(JsonInclude.Include.ALWAYS)
  record UserClaim(
      String code,
      Instant claimedAt,
      @Schema(allowableValues = {"claimed", "redeemed"}) String redemption,
      @Nullable @Schema(nullable = true) String orderId) {
    static UserClaim of(CouponRecord record) {
      return new UserClaim(
          record.code(), record.claimedAt(), record.state().wireName(), record.orderId());
    }
  }

  /**
   * A coupon and what became of it: {@code user} (the holder's user key) and {@code claimedAt}
   * null while available, {@code orderId} null unless redeemed.
   */
  @Serdeable
  @JsonInclude(JsonInclude.Include.ALWAYS)
  record CouponView(
      String code,
      @Schema(allowableValues = {"available", "claimed", "redeemed"}) String state,
      @Nullable
          @Schema(
              nullable = true,
              description = "the holder's user key: SHA-256 of the user id, as 64 hex characters")
          String user,
      @Nullable @Schema(nullable = true) Instant claimedAt,
      @Nullable @Schema(nullable = true) String orderId) {
    static CouponView of(CouponRecord record) {
      return new CouponView(
          record.code(),
          record.state().wireName(),
          record.user(),
          record.claimedAt(),
          record.orderId());
    }
  }
}
