package flashclaim.redemption;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.Api;
import flashclaim.testing.Claimer;
import flashclaim.testing.MultiInstanceTest;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.Tokens;
import flashclaim.testing.Webhooks;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Redemption webhooks through {@value MultiInstanceTest#INSTANCES} instances on one store, checked
 * against the store itself: forged, stale and tampered deliveries change nothing; repeated
 * deliveries apply once; events that do not fit the coupon's state are refused and change nothing;
 * claims (G1-G5) are untouched. Concurrent deliveries about one coupon, duplicates and a racing
 * redeem and cancel, are {@link RedemptionStoreContract}'s.
 * Subclassed per store.
 */
public abstract class RedemptionWebhookContract extends MultiInstanceTest {
  private static final String PROBLEM = "urn:flashclaim:problem:";
  private static final int COUPONS = 4;

  private String campaign;
  /** A coupon claimed by a user. */
  private String claimed;
  /** A coupon nobody holds. */
  private String unassigned;

  @BeforeEach
  void campaignWithOneClaimedCoupon() {
    campaign = newCampaign(1, COUPONS);
    claimed = Claimer.claimUntilFinal(instance(0), campaign, "shopper").code();
    unassigned =
        backend().coupons(campaign).stream()
            .filter(c -> !c.assigned())
            .findFirst()
            .orElseThrow()
            .code();
  }

  // ---------------------------------------------------------------- signatures

  /** Ways a delivery can be forged, replayed late or tampered with. */
  enum Forgery {
    NO_SIGNATURE(body -> new Sent(body, null)),
    EMPTY_SIGNATURE(body -> new Sent(body, "")),
    NOT_A_SIGNATURE(body -> new Sent(body, "sha256=deadbeef")),
    NO_TIMESTAMP(body -> new Sent(body, signed(body, now()).replaceFirst("t=\\d+,", ""))),
    NO_HMAC(body -> new Sent(body, "t=" + now())),
    HMAC_NOT_HEX(body -> new Sent(body, "t=" + now() + ",v1=" + "zz".repeat(32))),
    WRONG_SECRET(
        body ->
            new Sent(
                body,
                Webhooks.signature(
                    bytes(body), now(), "not-the-webhook-secret-of-the-service-0123456789"))),
    STALE(body -> new Sent(body, signed(body, now() - 6 * 60))),
    FROM_THE_FUTURE(body -> new Sent(body, signed(body, now() + 6 * 60))),
    TIMESTAMP_SWAPPED(body -> new Sent(body, signed(body, now() - 6 * 60).replaceFirst("t=\\d+", "t=" + now()))),
    BODY_TAMPERED(body -> new Sent(body.replace("order-1", "order-2"), signed(body, now()))),
    BODY_EXTENDED(body -> new Sent(body + " ", signed(body, now()))),
    SIGNATURE_OF_ANOTHER_BODY(body -> new Sent(body, signed("{}", now())));

    final Function<String, Sent> forge;

    Forgery(Function<String, Sent> forge) {
      this.forge = forge;
    }

    private static long now() {
      return Instant.now().getEpochSecond();
    }

    private static String signed(String body, long t) {
      return Webhooks.signature(bytes(body), t, Webhooks.SECRET);
    }
  }

  /** A delivery as sent: the body and the signature header (none when null). */
  record Sent(String body, String signature) {}

  @ParameterizedTest(name = "{0}")
  @EnumSource(Forgery.class)
  void forgedStaleOrTamperedDeliveriesAreUnauthorizedAndChangeNothing(Forgery forgery) {
    String body = Webhooks.body(null, claimed, "order-1", "redeemed");
    Map<String, String> before = backend().snapshot();
    Sent sent = forgery.forge.apply(body);

    for (int i = 0; i < INSTANCES; i++) {
      Api.Response response = Webhooks.deliver(instance(i), sent.body(), sent.signature());
      assertProblem(response, 401, "invalid-signature");
    }
    assertThat(backend().snapshot()).isEqualTo(before);

    // The same event, signed properly, is applied.
    assertDelivered(Webhooks.deliver(instance(0), body), "applied", "redeemed");
  }

  // ---------------------------------------------------------------- the state machine

  /**
   * assigned -> redeemed -> assigned -> redeemed by a new order, each event delivered several
   * times through every instance: each applies once; repeats change nothing.
   */
  @Test
  void eachEventAppliesOnceAndRepeatsAreAlreadyApplied() {
    Map<String, String> claimRecordsBefore = claimRecords();
    String redeemed = Webhooks.body(null, claimed, "order-1", "redeemed");

    assertDelivered(Webhooks.deliver(instance(0), redeemed), "applied", "redeemed");
    assertThat(assertStored(campaign, claimed, "redeemed", "order-1").redeemedAt()).isNotNull();
    assertRepeatsChangeNothing(redeemed, "redeemed");

    String cancelled = Webhooks.body(campaign, claimed, "order-1", "cancelled");
    assertDelivered(Webhooks.deliver(instance(1), cancelled), "applied", "assigned");
    assertThat(assertStored(campaign, claimed, "assigned", "order-1").cancelledAt()).isNotNull();
    assertRepeatsChangeNothing(cancelled, "assigned");
    // A late repeat of the cancelled order's "redeemed" does not redeem the coupon again.
    assertRepeatsChangeNothing(redeemed, "assigned");

    // The user kept the coupon; a new order redeems it.
    String second = Webhooks.body(null, claimed, "order-2", "redeemed");
    assertDelivered(Webhooks.deliver(instance(2), second), "applied", "redeemed");
    assertThat(assertStored(campaign, claimed, "redeemed", "order-2").cancelledAt()).isNull();

    // Redemption never touches the assignment nor the claim records (G1-G5).
    assertThat(claimRecords()).isEqualTo(claimRecordsBefore);
    assertStoreConsistent(campaign, 1);
    assertAuditOk(campaign, 1);
  }

  static Stream<String[]> refusedEvents() {
    return Stream.of(
        // never redeemed: nothing to cancel (out of order: "cancelled" before "redeemed")
        new String[] {"cancelled before redeemed", "", "cancelled:order-1"},
        // redeemed by order-1: another order can neither redeem nor cancel it
        new String[] {"redeemed by another order", "redeemed:order-1", "redeemed:order-2"},
        new String[] {"cancelled by another order", "redeemed:order-1", "cancelled:order-2"},
        // cancelled, so not redeemed: cancelling for another order is refused
        new String[] {
          "cancelled again by another order", "redeemed:order-1,cancelled:order-1", "cancelled:order-2"
        });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refusedEvents")
  void eventsThatDoNotFitTheStateAreConflictsAndChangeNothing(
      String label, String applied, String refused) {
    for (String event : applied.isEmpty() ? new String[0] : applied.split(",")) {
      String[] parts = event.split(":");
      assertThat(Webhooks.deliver(instance(0), Webhooks.body(null, claimed, parts[1], parts[0])).status())
          .isEqualTo(200);
    }
    Map<String, String> before = couponsAndClaims();
    String[] parts = refused.split(":");
    String body = Webhooks.body(null, claimed, parts[1], parts[0]);

    for (int i = 0; i < INSTANCES; i++) {
      assertProblem(Webhooks.deliver(instance(i), body), 409, "invalid-transition");
    }
    assertThat(couponsAndClaims()).isEqualTo(before);
  }

  @Test
  void outOfOrderCancelIsRefusedThenTheRedeemStillApplies() {
    Map<String, String> before = couponsAndClaims();
    assertProblem(
        Webhooks.deliver(instance(0), Webhooks.body(null, claimed, "order-1", "cancelled")),
        409,
        "invalid-transition");
    assertThat(couponsAndClaims()).isEqualTo(before);

    assertDelivered(
        Webhooks.deliver(instance(1), Webhooks.body(null, claimed, "order-1", "redeemed")),
        "applied",
        "redeemed");
    assertDelivered(
        Webhooks.deliver(instance(2), Webhooks.body(null, claimed, "order-1", "cancelled")),
        "applied",
        "assigned");
  }

  @ParameterizedTest
  @EnumSource(names = {"REDEEMED", "CANCELLED"})
  void aCouponNobodyHoldsCannotBeRedeemed(RedemptionEvent.Kind kind) {
    Map<String, String> before = couponsAndClaims();
    assertProblem(
        Webhooks.deliver(instance(0), Webhooks.body(null, unassigned, "order-1", kind.wireName())),
        409,
        "coupon-not-assigned");
    assertThat(couponsAndClaims()).isEqualTo(before);
  }

  // ---------------------------------------------------------------- finding the coupon

  @Test
  void unknownCodesAreNotFoundAndChangeNothing() {
    Map<String, String> before = backend().snapshot();
    assertProblem(
        Webhooks.deliver(instance(0), Webhooks.body(null, "NO-SUCH-CODE", "order-1", "redeemed")),
        404,
        "coupon-not-found");
    assertProblem(
        Webhooks.deliver(instance(1), Webhooks.body(campaign, "NO-SUCH-CODE", "order-1", "redeemed")),
        404,
        "coupon-not-found");
    assertProblem(
        Webhooks.deliver(instance(2), Webhooks.body("no-such-campaign", claimed, "order-1", "redeemed")),
        404,
        "coupon-not-found");
    assertThat(backend().snapshot()).isEqualTo(before);
  }

  /** A code in two campaigns needs the campaign named; with it, the right coupon changes. */
  @Test
  void aCodeInSeveralCampaignsNeedsTheCampaign() {
    String other = newCampaign(1, 0);
    Api.Response added =
        Api.post(
            instance(0),
            "/v1/admin/campaigns/" + other + "/coupons",
            Tokens.admin(),
            "{\"codes\":[\"" + claimed + "\"]}");
    assertThat(added.status()).isEqualTo(200);
    Map<String, String> before = backend().snapshot();

    assertProblem(
        Webhooks.deliver(instance(0), Webhooks.body(null, claimed, "order-1", "redeemed")),
        409,
        "ambiguous-code");
    assertThat(backend().snapshot()).isEqualTo(before);

    assertDelivered(
        Webhooks.deliver(instance(1), Webhooks.body(campaign, claimed, "order-1", "redeemed")),
        "applied",
        "redeemed");
    assertProblem(
        Webhooks.deliver(instance(2), Webhooks.body(other, claimed, "order-1", "redeemed")),
        409,
        "coupon-not-assigned");
    assertThat(backend().redemption(other, claimed).state()).isNull();
  }

  static Stream<String> badBodies() {
    return Stream.of(
        "",
        "not json",
        "null",
        "[]",
        "\"redeemed\"",
        "{}",
        "{\"code\":\"$CODE\",\"orderId\":\"o-1\"}",
        "{\"code\":\"$CODE\",\"event\":\"redeemed\"}",
        "{\"orderId\":\"o-1\",\"event\":\"redeemed\"}",
        "{\"code\":\"$CODE\",\"orderId\":\"o-1\",\"event\":\"refunded\"}",
        "{\"code\":\"$CODE\",\"orderId\":\"o-1\",\"event\":\"REDEEMED\"}",
        "{\"code\":\"$CODE\",\"orderId\":\"o-1\",\"event\":null}",
        "{\"code\":42,\"orderId\":\"o-1\",\"event\":\"redeemed\"}",
        "{\"code\":\"$CODE\",\"orderId\":7,\"event\":\"redeemed\"}",
        "{\"code\":[\"$CODE\"],\"orderId\":\"o-1\",\"event\":\"redeemed\"}",
        "{\"code\":\"$CODE\",\"orderId\":\"   \",\"event\":\"redeemed\"}",
        "{\"code\":\"$CODE\",\"orderId\":\"" + "o".repeat(129) + "\",\"event\":\"redeemed\"}",
        "{\"code\":\"$CODE\",\"orderId\":\"o\\n1\",\"event\":\"redeemed\"}",
        "{\"code\":\"bad code!\",\"orderId\":\"o-1\",\"event\":\"redeemed\"}",
        "{\"code\":\"$CODE\",\"orderId\":\"o-1\",\"event\":\"redeemed\",\"campaignId\":\"a/b\"}",
        "{\"code\":\"$CODE\",\"orderId\":\"o-1\",\"event\":\"redeemed\"");
  }

  @ParameterizedTest
  @MethodSource("badBodies")
  void badBodiesAreInvalidAndChangeNothing(String template) {
    String body = template.replace("$CODE", claimed);
    Map<String, String> before = backend().snapshot();

    assertProblem(Webhooks.deliver(instance(0), body), 400, "invalid-request");
    assertThat(backend().snapshot()).isEqualTo(before);
  }

  // ---------------------------------------------------------------- concurrency

  // ---------------------------------------------------------------- helpers

  /** The coupon's redemption fields as stored, after checking its state and order. */
  private StoreBackend.StoredRedemption assertStored(
      String campaignId, String code, String state, String orderId) {
    StoreBackend.StoredRedemption stored = backend().redemption(campaignId, code);
    assertThat(stored.state()).as("state of %s", code).isEqualTo(state);
    assertThat(stored.orderId()).as("order of %s", code).isEqualTo(orderId);
    return stored;
  }

  private void assertRepeatsChangeNothing(String body, String state) {
    Map<String, String> before = couponsAndClaims();
    for (int i = 0; i < INSTANCES; i++) {
      assertDelivered(Webhooks.deliver(instance(i), body), "already-applied", state);
    }
    assertThat(couponsAndClaims()).isEqualTo(before);
  }

  private void assertDelivered(Api.Response response, String result, String state) {
    assertThat(response.status()).as(response.toString()).isEqualTo(200);
    Map<String, Object> json = response.json();
    assertThat(json.get("result")).as(response.toString()).isEqualTo(result);
    assertThat(json.get("state")).as(response.toString()).isEqualTo(state);
    assertThat(json.get("campaignId")).isEqualTo(campaign);
    assertThat(json.get("code")).isEqualTo(claimed);
  }

  private static void assertProblem(Api.Response response, int status, String type) {
    assertThat(response.status()).as(response.toString()).isEqualTo(status);
    assertThat(response.contentType()).as(response.toString()).startsWith("application/problem+json");
    assertThat(response.json().get("type")).as(response.toString()).isEqualTo(PROBLEM + type);
    assertThat(response.json().get("status")).isEqualTo(status);
  }

  /** The campaign's claim records with their versions. */
  private Map<String, String> claimRecords() {
    return snapshotOf(key -> key.contains("/claims/"));
  }

  /**
   * Campaigns, coupons and claim records with their versions: everything but the lock records,
   * which every delivery that reaches a coupon's lock writes, whatever it decides.
   */
  private Map<String, String> couponsAndClaims() {
    return snapshotOf(key -> key.startsWith("campaigns/"));
  }

  private Map<String, String> snapshotOf(Predicate<String> keys) {
    return backend().snapshot().entrySet().stream()
        .filter(e -> keys.test(e.getKey()))
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
