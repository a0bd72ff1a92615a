package flashclaim.status;

import flashclaim.store.firestore.QueryRecorder;
import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreBackend;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The campaign status on Firestore (the emulator); stock reads are also counted at the store, as
 * the aggregation queries the instance's client sends (two per stock read: a count of the claim
 * records and a sum of the seeding records).
 */
class FirestoreCampaignStatusTest extends CampaignStatusContract {
  private final StoreBackend backend = new FirestoreBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }

  @Override
  protected Map<String, Object> instanceProperties() {
    return Map.of(QueryRecorder.PROPERTY, "true");
  }

  @Override
  protected OptionalLong storeStockReads(ServiceInstance instance, String campaign) {
    long aggregations =
        instance.context().getBean(QueryRecorder.class).recorded().stream()
            .filter(q -> q.rpc().equals("RunAggregationQuery"))
            .filter(q -> q.parent().endsWith("/campaigns/" + campaign))
            .count();
    return OptionalLong.of(aggregations / 2);
  }
}
