package flashclaim.claim;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.Api;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.Tokens;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The claim rules around the store: campaign window, sold out, deadline (G6), store outage.
 * Subclassed per store.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ClaimRulesContract {
  private ServiceInstance service;

  /** The store of the test. */
  protected abstract StoreBackend backend();

  /**
   * Starts an instance whose store does not answer, with a call timeout of 500 ms. The caller
   * closes it.
   */
  protected abstract ServiceInstance startWithDeadStore() throws Exception;

  @BeforeAll
  void start() {
    service = ServiceInstance.start(backend().properties());
  }

  @AfterAll
  void stop() {
    service.close();
  }

  @BeforeEach
  void reset() {
    backend().reset();
  }

  @Test
  void campaignNotStartedOrEndedIsForbiddenAndAssignsNothing() {
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    createCampaign("future", now.plus(1, ChronoUnit.DAYS), now.plus(2, ChronoUnit.DAYS), 5);
    createCampaign("past", now.minus(2, ChronoUnit.DAYS), now.minus(1, ChronoUnit.DAYS), 5);

    for (String campaign : new String[] {"future", "past"}) {
      Api.Response claim = claim(service, campaign, "early-bird");
      assertThat(claim.status()).isEqualTo(403);
      assertThat(claim.contentType()).startsWith("application/problem+json");
      assertThat(claim.json().get("type")).isEqualTo("urn:flashclaim:problem:campaign-not-open");
      assertThat(backend().claims(campaign)).isEmpty();
    }
  }

  @Test
  void emptyPoolIsSoldOutAndUnknownCampaignIsNotFound() {
    createCampaign("empty", null, null, 0);
    Api.Response soldOut = claim(service, "empty", "late");
    assertThat(soldOut.status()).isEqualTo(410);
    assertThat(soldOut.json().get("type")).isEqualTo("urn:flashclaim:problem:sold-out");

    Api.Response unknown = claim(service, "no-such-campaign", "late");
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.json().get("type")).isEqualTo("urn:flashclaim:problem:campaign-not-found");
  }

  /** G6: a claim that cannot finish by its deadline answers 503 + Retry-After, not later. */
  @Test
  void claimPastItsDeadlineIsBusyWithRetryAfter() {
    Map<String, Object> hurry = new HashMap<>(backend().properties());
    hurry.put("flashclaim.claim.deadline", "0ms");
    hurry.put("flashclaim.claim.retry-after", "3s");
    try (ServiceInstance hurried = ServiceInstance.start(hurry)) {
      createCampaign("hurry", null, null, 2);
      Api.Response busy = claim(hurried, "hurry", "rushed");
      assertThat(busy.status()).isEqualTo(503);
      assertThat(busy.header("Retry-After")).isEqualTo("3");
      assertThat(busy.json().get("type")).isEqualTo("urn:flashclaim:problem:busy");
      assertThat(backend().claims("hurry")).isEmpty();
    }
  }

  /** G6: a store that does not answer gives 503 + Retry-After within the call timeout. */
  @Test
  void unreachableStoreIsUnavailableNotAHang() throws Exception {
    try (ServiceInstance cutOff = startWithDeadStore()) {
      long started = System.nanoTime();
      Api.Response response = claim(cutOff, "any", "patient");
      long millis = (System.nanoTime() - started) / 1_000_000;
      assertThat(response.status()).isEqualTo(503);
      assertThat(response.header("Retry-After")).isNotNull();
      assertThat(response.json().get("type")).isEqualTo("urn:flashclaim:problem:store-unavailable");
      assertThat(millis).as("answered after %d ms", millis).isLessThan(30_000);
    }
  }

  private void createCampaign(String id, Instant startsAt, Instant endsAt, int coupons) {
    String window =
        (startsAt == null ? "" : ",\"startsAt\":\"" + startsAt + "\"")
            + (endsAt == null ? "" : ",\"endsAt\":\"" + endsAt + "\"");
    Api.Response created =
        Api.post(
            service.url(),
            "/v1/admin/campaigns",
            Tokens.admin(),
            "{\"id\":\"" + id + "\",\"name\":\"" + id + "\"" + window + "}");
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    if (coupons > 0) {
      Api.post(
          service.url(),
          "/v1/admin/campaigns/" + id + "/coupons",
          Tokens.admin(),
          "{\"generate\":{\"count\":" + coupons + "}}");
    }
  }

  private static Api.Response claim(ServiceInstance instance, String campaign, String user) {
    return Api.post(instance.url(), "/v1/campaigns/" + campaign + "/claims", Tokens.user(user), null);
  }
}
