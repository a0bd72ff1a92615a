package flashclaim.store.firestore;

import com.google.cloud.firestore.Firestore;
import io.micronaut.context.annotation.Requires;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.AbstractHealthIndicator;
import jakarta.inject.Singleton;
import java.util.Map;

/** Health: the store answers a read of one document within the call timeout. */
@Singleton
@Requires(bean = Firestore.class)
final class FirestoreHealthIndicator extends AbstractHealthIndicator<Map<String, Object>> {
  private final Firestore db;
  private final FirestoreConfig config;

  FirestoreHealthIndicator(Firestore db, FirestoreConfig config) {
    this.db = db;
    this.config = config;
  }

  @Override
  protected Map<String, Object> getHealthInformation() {
    long started = System.nanoTime();
    FirestoreCalls.await(
        () -> db.collection(FirestoreLayout.CAMPAIGNS).document("health-probe").get(),
        config.callTimeout(),
        "answer a health probe");
    healthStatus = HealthStatus.UP;
    return Map.of(
        "projectId", config.projectId(),
        "latencyMillis", (System.nanoTime() - started) / 1_000_000);
  }

  @Override
  protected String getName() {
    return "firestore";
  }
}
