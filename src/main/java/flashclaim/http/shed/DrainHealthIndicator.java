package flashclaim.http.shed;

import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.AbstractHealthIndicator;
import io.micronaut.management.health.indicator.annotation.Readiness;
import jakarta.inject.Singleton;
import java.util.Map;

/** Readiness: DOWN once the instance drains for shutdown, so that no new traffic is sent to it. */
@Singleton
@Readiness
final class DrainHealthIndicator extends AbstractHealthIndicator<Map<String, Object>> {
  private final GracefulShutdown shutdown;

  DrainHealthIndicator(GracefulShutdown shutdown) {
    this.shutdown = shutdown;
  }

  @Override
  protected Map<String, Object> getHealthInformation() {
    boolean draining = shutdown.isDraining();
    healthStatus = draining ? HealthStatus.DOWN : HealthStatus.UP;
    return Map.of("accepting", !draining);
  }

  @Override
  protected String getName() {
    return "admission";
  }
}
