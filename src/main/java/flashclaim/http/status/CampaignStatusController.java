package flashclaim.http.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import flashclaim.Sha256;
import flashclaim.campaign.Campaign;
import flashclaim.campaign.CampaignId;
import flashclaim.http.problem.CampaignNotFound;
import flashclaim.status.CampaignStatus;
import flashclaim.status.CampaignStatusService;
import flashclaim.status.StatusConfig;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.rules.SecurityRule;
import io.micronaut.serde.annotation.Serdeable;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/**
 * The campaign as the app shows it, for any signed-in user: phase, window and coupons remaining
 * ({@link CampaignStatusService}: at most one stock read per campaign and second per instance).
 * Cacheable for {@code flashclaim.status.max-age}; its weak {@code ETag} covers everything but
 * {@code serverTime} and {@code remainingAt}, and {@code If-None-Match} with a current tag answers
 * 304 without a body. A failed store read answers 503 through {@link ErrorRoutes}.
 *
 * <p>It runs on the event loop: an answer from the cache is ready at once, and a store read runs on
 * the store executor and completes the response from there.
 */
@Controller("/v1/campaigns")
@Secured(SecurityRule.IS_AUTHENTICATED)
final class CampaignStatusController {
  private final CampaignStatusService statuses;
  private final StatusConfig config;

  CampaignStatusController(CampaignStatusService statuses, StatusConfig config) {
    this.statuses = statuses;
    this.config = config;
  }

  @StatusApiDocs.CampaignStatus
  @Get("/{id}")
  CompletableFuture<HttpResponse<?>> status(@PathVariable String id, HttpRequest<?> request) {
    return statuses
        .status(new CampaignId(id))
        .<HttpResponse<?>>thenApply(
            found ->
                found
                    .<HttpResponse<?>>map(status -> answer(StatusView.of(status), request))
                    .orElseGet(() -> CampaignNotFound.response(id, request.getPath())));
  }

  private HttpResponse<?> answer(StatusView view, HttpRequest<?> request) {
    String tag = view.etag();
    MutableHttpResponse<?> response =
        matches(request.getHeaders().getAll(HttpHeaders.IF_NONE_MATCH), tag)
            ? HttpResponse.notModified()
            : HttpResponse.ok(view);
    return response.header(HttpHeaders.ETAG, tag).header(HttpHeaders.CACHE_CONTROL, config.cacheControl());
  }

  /** If-None-Match's weak comparison (RFC 9110 13.1.2): any listed tag, or {@code *}. */
  static boolean matches(List<String> ifNoneMatch, String tag) {
    String opaque = opaque(tag);
    for (String header : ifNoneMatch) {
      for (String candidate : header.split(",")) {
        String trimmed = candidate.trim();
        if (trimmed.equals("*") || opaque(trimmed).equals(opaque)) {
          return true;
        }
      }
    }
    return false;
  }

  private static String opaque(String tag) {
    return tag.startsWith("W/") ? tag.substring(2) : tag;
  }

  /**
   * A campaign's status as the API shows it; {@code status} is {@code upcoming}, {@code open},
   * {@code sold-out}, {@code paused} (by an admin) or {@code ended}; {@code startsAt}/{@code endsAt} are null where the window is
   * open-ended; {@code remaining} is the count this instance read at {@code remainingAt}, under
   * steady polling at most {@code flashclaim.status.stock-max-age} (1 s) and one read before {@code
   * serverTime}, the server's clock, against which an app corrects its own for a countdown.
   */
  @Serdeable
  @JsonInclude(JsonInclude.Include.ALWAYS)
  record StatusView(
      String id,
      String name,
      String status,
      @Nullable Instant startsAt,
      @Nullable Instant endsAt,
      long remaining,
      Instant remainingAt,
      Instant serverTime) {

    static StatusView of(CampaignStatus status) {
      Campaign c = status.campaign();
      return new StatusView(
          c.id().value(),
          c.name(),
          status.phase().name().toLowerCase(Locale.ROOT).replace('_', '-'),
          c.startsAt(),
          c.endsAt(),
          status.remaining(),
          status.stockReadAt(),
          status.serverTime());
    }

    /**
     * A weak tag of everything but the two instants: {@code serverTime} changes on every answer,
     * and a stock read again with the same count is the same answer.
     */
    String etag() {
      String content = String.join("\n", id, name, status, String.valueOf(startsAt), String.valueOf(endsAt), Long.toString(remaining));
      return "W/\"" + Sha256.hex(content, 12) + "\"";
    }
  }
}
