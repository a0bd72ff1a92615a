package flashclaim.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSAlgorithm;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CampaignService;
import flashclaim.testing.Api;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.TestEmulator;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The start-up warm-up in firebase mode: its claims pass the token check with a key pair of its
 * own, added to the fetched key set while it runs, and are won (201); once it is over, no warm-up
 * token can be minted and the key set is passed on as fetched.
 */
class FirebaseWarmUpTest {
  private static final String KID = "key-1";

  @Test
  void theWarmUpsOwnTokensPassWhileItRunsAndNoneIsMintedAfter() {
    TestEmulator.reset();
    try (KeySetServer keys = KeySetServer.serving(KID)) {
      Map<String, Object> properties = new HashMap<>(FirebaseTokenTest.firebaseMode(keys.url()));
      properties.put("flashclaim.warm-up.enabled", "true");
      properties.put("flashclaim.warm-up.requests", "160");
      properties.put("flashclaim.warm-up.claims", "10");
      properties.put("flashclaim.warm-up.max-time", "120s");
      properties.put("flashclaim.health.cache-ttl", "0s");
      try (ServiceInstance service = ServiceInstance.start(properties)) {
        String admin =
            TokenForge.rsa(
                JWSAlgorithm.RS256,
                keys.key(),
                KID,
                TokenForge.claims("admin", List.of("admin"))
                    .issuer(FirebaseTokenTest.ISSUER)
                    .audience(FirebaseTokenTest.PROJECT)
                    .build());
        Map<String, Object> warmUp = awaitReady(service, admin, Duration.ofSeconds(120));
        assertThat(warmUp).containsEntry("state", "DONE");
        @SuppressWarnings("unchecked")
        Map<String, Object> answers = (Map<String, Object>) warmUp.get("answers");
        // 60 new users for 10 coupons: all 10 claimed (201s: at most 10, since a loaded machine
        // may answer one 503 whose commit landed); only the 20 claims without a token are 401
        assertThat((Integer) answers.get("201")).isBetween(1, 10);
        assertThat(answers).containsEntry("401", 20);
        CampaignService campaigns = service.context().getBean(CampaignService.class);
        assertThat(
                campaigns.stock(new CampaignId("_flashclaim-warm-up")).orElseThrow().stock().assigned())
            .isEqualTo(10);

        WarmUpTokens tokens = service.context().getBean(WarmUpTokens.class);
        assertThat(tokens.mint("anyone")).isEmpty();
        String fetched = "{\"keys\":[]}";
        assertThat(tokens.withWarmUpKey(fetched)).isSameAs(fetched);
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> awaitReady(ServiceInstance service, String admin, Duration within) {
    Map<String, Object> details =
        (Map<String, Object>) Api.awaitReady(service.url(), admin, within).json().get("details");
    return (Map<String, Object>) ((Map<String, Object>) details.get("warm-up")).get("details");
  }
}
