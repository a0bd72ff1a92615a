package flashclaim.startup;

import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.AbstractHealthIndicator;
import io.micronaut.management.health.indicator.annotation.Readiness;
import jakarta.inject.Singleton;
import java.util.Map;

/**
 * Readiness: DOWN until the start-up warm-up ({@link StartupWarmUp}) is over or past {@code
 * flashclaim.warm-up.max-time}; UP at once when it is off. Liveness does not wait for it.
 */
@Singleton
@Readiness
final class WarmUpHealthIndicator extends AbstractHealthIndicator<Map<String, Object>> {
  private final StartupWarmUp warmUp;

  WarmUpHealthIndicator(StartupWarmUp warmUp) {
    this.warmUp = warmUp;
  }

  @Override
  protected Map<String, Object> getHealthInformation() {
    healthStatus = warmUp.finished() ? HealthStatus.UP : HealthStatus.DOWN;
    return warmUp.details();
  }

  @Override
  protected String getName() {
    return "warm-up";
  }
}
