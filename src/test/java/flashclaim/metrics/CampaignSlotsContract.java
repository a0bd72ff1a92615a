package flashclaim.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.Api;
import flashclaim.testing.MultiInstanceTest;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.Tokens;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * G6 for per-campaign state: claims to campaign ids that anyone can make up take none of an
 * instance's bounded places, neither a {@code campaign} tag of the claim meters nor a campaign of
 * the live dashboard, whatever they come to: unknown (404), refused (400, ids no store can hold),
 * or failed (503, the store did not answer). Afterwards each instance shows the real campaigns'
 * figures exactly, and still has room for one more real campaign.
 */
public abstract class CampaignSlotsContract extends MultiInstanceTest {
  /** Places of each instance: room for the two real campaigns of the test and no more. */
  private static final int PLACES = 2;

  private static final int MADE_UP_CLAIMS = 1_500;

  /** Every third made-up id is one that Firestore reserves, which no store is asked about. */
  private static final int RESERVED_EVERY = 3;

  private static final int COUPONS = 30;
  private static final int REAL_CLAIMS = 45;

  @Override
  protected Map<String, Object> instanceProperties() {
    return Map.of(
        "flashclaim.metrics.max-campaign-tags", PLACES,
        "flashclaim.dashboard.max-campaigns", PLACES,
        // Exact counts: no claim of a loaded machine should run into the deadline.
        "flashclaim.claim.deadline", "30s");
  }

  @Test
  void madeUpCampaignIdsLeaveThePlacesToRealCampaigns() throws Exception {
    String real = newCampaign(1, COUPONS);
    String later = newCampaign(1, COUPONS);
    int total = MADE_UP_CLAIMS + REAL_CLAIMS;
    int every = total / REAL_CLAIMS;

    List<Claim> claims =
        runAll(
            total,
            i -> {
              int instance = i % INSTANCES;
              boolean isReal = i % every == 0 && i / every < REAL_CLAIMS;
              String madeUp =
                  i % RESERVED_EVERY == 0
                      ? "__" + UUID.randomUUID() + "__"
                      : "made-up-" + UUID.randomUUID();
              String campaign = isReal ? real : madeUp;
              return () ->
                  new Claim(
                      instance, isReal, campaign, claim(instance(instance), campaign, "user-" + i));
            });

    List<Counts> expected = new ArrayList<>();
    for (int i = 0; i < INSTANCES; i++) {
      expected.add(new Counts());
    }
    for (Claim c : claims) {
      Counts counts = expected.get(c.instance());
      if (!c.real()) {
        assertThat(c.status())
            .as(c.campaign())
            .isEqualTo(c.campaign().startsWith("__") ? 400 : 404);
        counts.unknown += c.status() == 404 ? 1 : 0;
      } else if (c.status() == 201) {
        counts.claimed++;
      } else {
        assertThat(c.status()).isEqualTo(410);
        counts.soldOut++;
      }
    }
    assertThat(expected.stream().mapToLong(c -> c.claimed).sum()).isEqualTo(COUPONS);
    assertThat(expected.stream().mapToLong(c -> c.unknown).sum())
        .isEqualTo(
            claims.stream().filter(c -> !c.real() && !c.campaign().startsWith("__")).count());

    for (int i = 0; i < INSTANCES; i++) {
      Counts counts = expected.get(i);
      String metrics = Api.get(instance(i), "/prometheus", null).body();
      assertThat(counter(metrics, real, "claimed")).as("instance %d", i).isEqualTo(counts.claimed);
      assertThat(counter(metrics, real, "sold_out")).as("instance %d", i).isEqualTo(counts.soldOut);
      assertThat(counter(metrics, CampaignTags.UNKNOWN, "unknown_campaign"))
          .as("instance %d", i)
          .isEqualTo(counts.unknown);
      assertThat(metrics)
          .doesNotContain("made-up-")
          .doesNotContain("campaign=\"__")
          .doesNotContain("campaign=\"other\"");

      Map<String, Object> live =
          Api.get(instance(i), "/v1/admin/campaigns/" + real + "/live", Tokens.admin()).json();
      Map<?, ?> outcomes = (Map<?, ?>) ((Map<?, ?>) live.get("instance")).get("outcomes");
      assertThat(((Number) outcomes.get("claimed")).longValue())
          .as("instance %d", i)
          .isEqualTo(counts.claimed);
      assertThat(((Number) outcomes.get("soldOut")).longValue())
          .as("instance %d", i)
          .isEqualTo(counts.soldOut);
      assertThat(activeCampaigns(instance(i))).as("instance %d", i).containsExactly(real);
    }

    // The second place of every instance is still free for another real campaign.
    for (int i = 0; i < INSTANCES; i++) {
      assertThat(claim(instance(i), later, "later-" + i)).isEqualTo(201);
      String metrics = Api.get(instance(i), "/prometheus", null).body();
      assertThat(counter(metrics, later, "claimed")).as("instance %d", i).isEqualTo(1);
      assertThat(activeCampaigns(instance(i)))
          .as("instance %d", i)
          .containsExactlyInAnyOrder(real, later);
    }
    assertStoreConsistent(real, COUPONS);
  }

  @Test
  void madeUpCampaignIdsTakeNoPlaceWhenTheStoreFails() throws Exception {
    String real = newCampaign(1, COUPONS);
    // Without the modification guard, whose store call would fail first, the claims reach the
    // claim service and fail there, which its listeners are told of.
    Map<String, Object> properties = new HashMap<>(backend().cutOffProperties());
    properties.put("flashclaim.guard.enabled", "false");
    // and so that every one of them reaches it, rather than a refusal of admission's line
    properties.put("flashclaim.admission.max-queued", MADE_UP_CLAIMS);
    properties.put("flashclaim.admission.max-wait", "10s");
    try (ServiceInstance cut = startInstance(properties)) {
      assertThat(claim(cut.url(), real, "before-the-cut")).isEqualTo(201);
      backend().cutOff(cut);

      List<Integer> statuses =
          runAll(
              MADE_UP_CLAIMS,
              i -> () -> claim(cut.url(), "made-up-" + UUID.randomUUID(), "user-" + i));

      assertThat(statuses).containsOnly(503);
      String metrics = Api.get(cut.url(), "/prometheus", null).body();
      assertThat(counter(metrics, real, "claimed")).isEqualTo(1);
      assertThat(counter(metrics, CampaignTags.UNKNOWN, "error")).isEqualTo(MADE_UP_CLAIMS);
      assertThat(metrics).doesNotContain("made-up-").doesNotContain("campaign=\"other\"");
      assertThat(activeCampaigns(cut.url())).containsExactly(real);
    }
  }

  private record Claim(int instance, boolean real, String campaign, int status) {}

  /** Answers of one instance, by outcome. */
  private static final class Counts {
    long claimed;
    long soldOut;
    long unknown;
  }

  private static int claim(URI instance, String campaign, String user) {
    return Api.post(instance, "/v1/campaigns/" + campaign + "/claims", Tokens.user(user), null)
        .status();
  }

  private static List<String> activeCampaigns(URI instance) {
    Map<String, Object> active = Api.get(instance, "/v1/admin/live", Tokens.admin()).json();
    List<String> ids = new ArrayList<>();
    for (Object campaign : (List<?>) active.get("campaigns")) {
      ids.add((String) ((Map<?, ?>) campaign).get("id"));
    }
    return ids;
  }

  private static long counter(String text, String campaign, String outcome) {
    Matcher m =
        Pattern.compile(
                "(?m)^flashclaim_claims_total\\{campaign=\""
                    + Pattern.quote(campaign)
                    + "\",outcome=\""
                    + outcome
                    + "\",?\\} ([0-9.eE+-]+)$")
            .matcher(text);
    return m.find() ? (long) Double.parseDouble(m.group(1)) : 0;
  }
}
