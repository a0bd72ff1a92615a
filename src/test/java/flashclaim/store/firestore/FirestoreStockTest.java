package flashclaim.store.firestore;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.firestore.DocumentReference;
import com.google.cloud.firestore.QueryDocumentSnapshot;
import flashclaim.testing.Api;
import flashclaim.testing.Claimer;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.TestEmulator;
import flashclaim.testing.Tokens;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The stock of a Firestore campaign: the sum of its seeding records, and for a campaign without any
 * (seeded before seeding records were written) a count of its coupons, never 0 for a full pool.
 */
class FirestoreStockTest {

  @Test
  void aCampaignWithoutSeedingRecordsCountsItsCoupons() throws Exception {
    try (ServiceInstance instance = ServiceInstance.start(Map.of())) {
      String campaign = "legacy-" + System.nanoTime();
      Api.createCampaign(instance.url(), campaign, 1, 7);
      assertThat(stock(instance, campaign)).containsEntry("total", 7).containsEntry("remaining", 7);

      DocumentReference doc = TestEmulator.firestore().collection("campaigns").document(campaign);
      for (QueryDocumentSnapshot record :
          doc.collection("seedings").get().get(60, TimeUnit.SECONDS).getDocuments()) {
        record.getReference().delete().get(60, TimeUnit.SECONDS);
      }
      assertThat(Claimer.claimUntilFinal(instance.url(), campaign, "someone"))
          .matches(Claimer.Result::tookACoupon);

      assertThat(stock(instance, campaign))
          .containsEntry("total", 7)
          .containsEntry("assigned", 1)
          .containsEntry("remaining", 6);
    }
  }

  @Test
  void aCampaignWithoutCouponsHasNone() {
    try (ServiceInstance instance = ServiceInstance.start(Map.of())) {
      String campaign = "empty-" + System.nanoTime();
      Api.createCampaign(instance.url(), campaign, 1, 0);
      assertThat(stock(instance, campaign))
          .containsEntry("total", 0)
          .containsEntry("assigned", 0)
          .containsEntry("remaining", 0);
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> stock(ServiceInstance instance, String campaign) {
    Api.Response response = Api.get(instance.url(), "/v1/admin/campaigns/" + campaign, Tokens.admin());
    assertThat(response.status()).isEqualTo(200);
    return (Map<String, Object>) response.json().get("stock");
  }
}
