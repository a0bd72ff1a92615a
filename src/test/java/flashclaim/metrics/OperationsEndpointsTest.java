package flashclaim.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.Api;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.TestEmulator;
import flashclaim.testing.Tokens;
import java.net.ServerSocket;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What operators read: the claim meters at {@code /prometheus} move by exactly the claims sent,
 * with bounded campaign tags; readiness follows the store, liveness does not.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OperationsEndpointsTest {
  private ServiceInstance service;

  @BeforeAll
  void start() {
    service = ServiceInstance.start(Map.of("flashclaim.metrics.max-campaign-tags", 2));
  }

  @AfterAll
  void stop() {
    service.close();
  }

  @BeforeEach
  void reset() {
    TestEmulator.reset();
  }

  @Test
  void claimMetersCountEveryOutcomeExactly() {
    Api.createCampaign(service.url(), "metered", 1, 2);
    for (String user : new String[] {"u1", "u2", "u3"}) {
      claim("metered", user);
    }
    claim("metered", "u1"); // already held
    claim("no-such-campaign", "u1");
    String text = scrape();

    assertThat(counter(text, "metered", "claimed")).isEqualTo(2);
    assertThat(counter(text, "metered", "already_held")).isEqualTo(1);
    assertThat(counter(text, "metered", "sold_out")).isEqualTo(1);
    assertThat(counter(text, "unknown", "unknown_campaign")).isEqualTo(1);
    assertThat(
            value(text, "flashclaim_claim_latency_seconds_count\\{campaign=\"metered\",outcome=\"claimed\",?\\}"))
        .isEqualTo(2);
    assertThat(text)
        .contains("flashclaim_claim_latency_seconds_bucket{campaign=\"metered\",outcome=\"claimed\",le=\"0.1\"")
        .contains("flashclaim_claim_latency_percentiles_seconds{campaign=\"metered\",outcome=\"claimed\",quantile=\"0.99\"")
        .contains("flashclaim_http_in_flight ")
        .contains("flashclaim_http_connections ")
        .contains("flashclaim_http_connection_bound_reached_total 0.0")
        .contains("flashclaim_http_shed_total{reason=\"overloaded\"")
        .contains("flashclaim_http_shed_total{reason=\"shutting_down\"")
        .contains("flashclaim_admission_limit ")
        .contains("flashclaim_admission_in_flight ")
        .contains("flashclaim_admission_queued ")
        .contains("flashclaim_admission_booked_seconds ")
        .contains("flashclaim_admission_fleet_floor_seconds ")
        .contains("flashclaim_admission_drain_rate ")
        .contains("flashclaim_admission_show_up_share 1.0")
        .contains("flashclaim_admission_book_resets_total 0.0")
        .contains("flashclaim_admission_slots_held_total 0.0")
        .contains("flashclaim_admission_fleet_slots_held_total 0.0")
        .contains("flashclaim_admission_served_early_total 0.0")
        .contains("flashclaim_admission_waited_total ")
        .contains("flashclaim_admission_waited_seconds_total ")
        .contains("flashclaim_http_event_loop_lag_seconds ")
        .contains("flashclaim_admission_shed_total{reason=\"queue_full\"")
        .contains("flashclaim_admission_shed_total{reason=\"deadline\"")
        .contains("flashclaim_admission_shed_total{reason=\"shutting_down\"")
        .contains("flashclaim_store_retries_total{store=\"firestore\"")
        .contains("flashclaim_store_queries_total{store=\"firestore\"")
        .contains("flashclaim_store_candidate_waits_total{store=\"firestore\"")
        .contains("flashclaim_store_candidate_wait_seconds_total{store=\"firestore\"")
        .contains("flashclaim_lock_waits_total ")
        .contains("flashclaim_lock_timeouts_total ")
        .contains("flashclaim_guard_conflicts_total ")
        .contains("http_server_requests_seconds_count");

    // Scraping again after more claims: the counter moves by exactly those.
    claim("metered", "u4");
    assertThat(counter(scrape(), "metered", "sold_out")).isEqualTo(2);
  }

  @Test
  void campaignTagsAreBounded() {
    for (String id : new String[] {"tag-a", "tag-b", "tag-c", "tag-d"}) {
      Api.createCampaign(service.url(), id, 1, 1);
      claim(id, "someone");
    }
    String text = scrape();
    // The limit is 2 for this instance; "metered" of the other test may have taken a slot first.
    long tagged =
        Pattern.compile("flashclaim_claims_total\\{campaign=\"tag-[a-d]\"").matcher(text).results().count();
    assertThat(tagged).isLessThanOrEqualTo(2);
    assertThat(counter(text, "other", "claimed") + tagged).isGreaterThanOrEqualTo(4);
    assertThat(counter(text, "other", "claimed")).isGreaterThanOrEqualTo(2);
  }

  @Test
  void readinessAndLivenessAreSeparate() throws Exception {
    // Details (which indicator) are for admins; anonymous callers see the status only.
    Api.Response ready = Api.get(service.url(), "/health/readiness", Tokens.admin());
    assertThat(ready.status()).as(ready.body()).isEqualTo(200);
    assertThat(ready.body()).contains("firestore").contains("admission");
    Api.Response live = Api.get(service.url(), "/health/liveness", null);
    assertThat(live.status()).as(live.body()).isEqualTo(200);
    assertThat(live.body()).doesNotContain("firestore");

    int deadPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      deadPort = socket.getLocalPort();
    }
    try (ServiceInstance cutOff =
        ServiceInstance.start(
            Map.of(
                "flashclaim.firestore.emulator-host", "127.0.0.1:" + deadPort,
                "flashclaim.firestore.call-timeout", "500ms"))) {
      Api.Response notReady = Api.get(cutOff.url(), "/health/readiness", Tokens.admin());
      assertThat(notReady.status()).as(notReady.body()).isEqualTo(503);
      assertThat(notReady.body()).contains("firestore");
      Api.Response stillLive = Api.get(cutOff.url(), "/health/liveness", null);
      assertThat(stillLive.status()).as(stillLive.body()).isEqualTo(200);
    }
  }

  private void claim(String campaign, String user) {
    Api.Response response =
        Api.post(service.url(), "/v1/campaigns/" + campaign + "/claims", Tokens.user(user), null);
    assertThat(response.status()).as(response.body()).isIn(200, 201, 404, 410);
  }

  private String scrape() {
    Api.Response response = Api.get(service.url(), "/prometheus", null);
    assertThat(response.status()).isEqualTo(200);
    return response.body();
  }

  private static long counter(String text, String campaign, String outcome) {
    return value(
        text,
        "flashclaim_claims_total\\{campaign=\"" + Pattern.quote(campaign) + "\",outcome=\"" + outcome + "\",?\\}");
  }

  /** The value of the sample whose name and labels match {@code series}; 0 when there is none. */
  private static long value(String text, String series) {
    Matcher m = Pattern.compile("(?m)^" + series + " ([0-9.eE+-]+)$").matcher(text);
    return m.find() ? (long) Double.parseDouble(m.group(1)) : 0;
  }
}
