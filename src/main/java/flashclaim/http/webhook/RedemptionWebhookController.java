package flashclaim.http.webhook;

import flashclaim.InvalidInputException;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CouponCode;
import flashclaim.http.HttpConfig;
import flashclaim.http.HttpExecutors;
import flashclaim.http.body.StrictJson;
import flashclaim.http.body.TakesBody;
import flashclaim.http.problem.InvalidInput;
import flashclaim.http.problem.ProblemType;
import flashclaim.redemption.OrderId;
import flashclaim.redemption.RedeemableCoupon;
import flashclaim.redemption.RedemptionEvent;
import flashclaim.redemption.RedemptionOutcome;
import flashclaim.redemption.RedemptionService;
import flashclaim.redemption.WebhookSignature;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.type.Argument;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.Post;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.rules.SecurityRule;
import io.micronaut.serde.ObjectMapper;
import io.micronaut.serde.annotation.Serdeable;
import java.io.IOException;
import java.util.function.Supplier;

/**
 * Redemption webhooks of shop systems. No bearer token: a shop signs the raw body with the shared
 * secret ({@link WebhookSignature}), and the signature is checked on the exact bytes received,
 * before anything of the body is read; only then is the body parsed as JSON.
 */
@Controller("/v1/webhooks/redemptions")
@Secured(SecurityRule.IS_ANONYMOUS)
@ExecuteOn(HttpExecutors.STORE)
final class RedemptionWebhookController {
  private static final byte[] EMPTY = new byte[0];
  private static final String APPLIED = "applied";
  private static final String ALREADY_APPLIED = "already-applied";

  private final RedemptionService redemptions;
  private final WebhookSignature signature;
  private final ObjectMapper json;
  private final HttpConfig config;

  RedemptionWebhookController(
      RedemptionService redemptions, WebhookSignature signature, ObjectMapper json, HttpConfig config) {
    this.redemptions = redemptions;
    this.signature = signature;
    this.json = json;
    this.config = config;
  }

  @WebhookApiDocs.Redemption
  @TakesBody(TakesBody.Limit.WEBHOOK)
  @Post
  @Consumes(MediaType.APPLICATION_JSON)
  HttpResponse<?> deliver(
      @Body @Nullable byte[] rawBody,
      @Header(WebhookSignature.HEADER) @Nullable String signed,
      HttpRequest<?> request) {
    String path = request.getPath();
    byte[] body = rawBody == null ? EMPTY : rawBody;
    WebhookSignature.Verdict verdict = signature.verify(signed, body);
    if (verdict != WebhookSignature.Verdict.VALID) {
      return ProblemType.INVALID_SIGNATURE.response(verdict.description(), path);
    }
    RedemptionEvent event = parse(body).toEvent();
    RedemptionOutcome outcome = redemptions.apply(event);
    if (outcome instanceof RedemptionOutcome.Applied applied) {
      return HttpResponse.ok(Delivered.of(APPLIED, event, applied.coupon()));
    } else if (outcome instanceof RedemptionOutcome.AlreadyApplied already) {
      return HttpResponse.ok(Delivered.of(ALREADY_APPLIED, event, already.coupon()));
    } else if (outcome instanceof RedemptionOutcome.UnknownCode) {
      return ProblemType.COUPON_NOT_FOUND.response(
          event.campaignId() == null
              ? "no campaign has a coupon with this code"
              : "the campaign has no coupon with this code",
          path);
    } else if (outcome instanceof RedemptionOutcome.AmbiguousCode) {
      return ProblemType.AMBIGUOUS_CODE.response(
          "coupons of several campaigns have this code; give the campaignId", path);
    } else if (outcome instanceof RedemptionOutcome.NotAssigned) {
      return ProblemType.COUPON_NOT_ASSIGNED.response(
          "nobody holds this coupon, so no order can have used it", path);
    } else if (outcome instanceof RedemptionOutcome.InvalidTransition invalid) {
      return ProblemType.INVALID_TRANSITION.response(
          "'" + event.kind().wireName() + "' does not apply to a coupon that is "
              + invalid.coupon().state().wireName() + ": " + invalid.reason(),
          path);
    } else if (outcome instanceof RedemptionOutcome.Busy) {
      return ProblemType.BUSY.retryLater(
          "another delivery about this coupon is being applied; deliver again later",
          path,
          config.retryAfter());
    }
    throw new IllegalStateException("unhandled redemption outcome " + outcome);
  }

  private Delivery parse(byte[] body) {
    Delivery delivery;
    try {
      delivery = json.readValue(body, Argument.of(Delivery.class));
    } catch (IOException e) {
      String message = InvalidInput.readable(e.getMessage());
      throw new InvalidInputException(null, message == null ? "the body is not valid JSON" : message);
    }
    if (delivery == null) {
      throw new InvalidInputException(null, "the body must be a JSON object");
    }
    return delivery;
  }

  /** Body of a delivery: {@code {code, orderId, event, campaignId?}}. */
  @Serdeable
  record Delivery(
      @Nullable @Serdeable.Deserializable(using = StrictJson.Text.class) String code,
      @Nullable @Serdeable.Deserializable(using = StrictJson.Text.class) String orderId,
      @Nullable @Serdeable.Deserializable(using = StrictJson.Text.class) String event,
      @Nullable @Serdeable.Deserializable(using = StrictJson.Text.class) String campaignId) {

    RedemptionEvent toEvent() {
      CouponCode coupon = asField("code", () -> new CouponCode(required(code, "code")));
      CampaignId campaign =
          campaignId == null ? null : asField("campaignId", () -> new CampaignId(campaignId));
      return new RedemptionEvent(
          coupon,
          campaign,
          new OrderId(required(orderId, "orderId")),
          RedemptionEvent.Kind.of(required(event, "event")));
    }

    /** A domain value, its rule's failure reported under the body's own field name. */
    private static <T> T asField(String field, Supplier<T> value) {
      try {
        return value.get();
      } catch (InvalidInputException e) {
        throw new InvalidInputException(field, e.getMessage());
      }
    }

    private static String required(String value, String field) {
      if (value == null) {
        throw new InvalidInputException(field, field + " is required");
      }
      return value;
    }
  }

  /** What a 200 answers: whether the event was applied now or before, and the coupon's state. */
  @Serdeable
  record Delivered(
      String result, String campaignId, String code, String orderId, String event, String state) {
    static Delivered of(String result, RedemptionEvent event, RedeemableCoupon coupon) {
      return new Delivered(
          result,
          coupon.campaignId().value(),
          coupon.code().value(),
          event.orderId().value(),
          event.kind().wireName(),
          coupon.state().wireName());
    }
  }
}
