package flashclaim.admission;

import com.netflix.concurrency.limits.Limit;
import com.netflix.concurrency.limits.limit.FixedLimit;
import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limit.VegasLimit;
import com.netflix.concurrency.limits.limiter.AbstractLimiter;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import java.time.Clock;
import java.util.concurrent.ThreadLocalRandom;

/** The admission of this instance, made at startup so that a bad configuration stops it there. */
@Factory
final class AdmissionFactory {

  @Context
  @Bean(preDestroy = "close")
  ScheduledWaitTimer waitTimer() {
    return new ScheduledWaitTimer();
  }

  /** The ceiling over the claims' adaptive limit, which the event loops' lag lowers. */
  @Context
  SlotCeiling slotCeiling(AdmissionConfig config) {
    return new SlotCeiling(limit(config));
  }

  @Context
  FairAdmission admission(
      AdmissionConfig config, Clock clock, ScheduledWaitTimer timer, SlotCeiling ceiling) {
    return new FairAdmission(
        config,
        limiter(ceiling),
        clock,
        timer,
        () -> ThreadLocalRandom.current().nextDouble());
  }

  /**
   * The fleet order of this instance's admission, on the store's board: started with the service,
   * its entry deleted when the service stops. Absent with {@code fleet.enabled=false}.
   */
  @Context
  @Requires(bean = FleetBoard.class)
  @Requires(property = "flashclaim.admission.fleet.enabled", notEquals = "false")
  @Bean(preDestroy = "close")
  FleetOrder fleetOrder(
      FleetBoard board, FleetConfig config, FairAdmission admission, Clock clock) {
    return FleetOrder.of(board, config, admission, clock).start();
  }

  /** The limiter of {@code flashclaim.admission.limit}, without a ceiling. */
  static AbstractLimiter<Void> limiter(AdmissionConfig config) {
    return limiter(limit(config));
  }

  /** The claims' limiter over {@code limit}. */
  private static AbstractLimiter<Void> limiter(Limit limit) {
    return SimpleLimiter.newBuilder().named("claims").limit(limit).build();
  }

  /** The adaptive limit of {@code flashclaim.admission.limit}. */
  private static Limit limit(AdmissionConfig config) {
    return switch (config.limit()) {
      case "gradient2" -> Gradient2Limit.newBuilder()
          .initialLimit(config.initialLimit())
          .minLimit(config.minLimit())
          .maxConcurrency(config.maxLimit())
          .build();
      case "vegas" -> VegasLimit.newBuilder()
          .initialLimit(config.initialLimit())
          .maxConcurrency(config.maxLimit())
          .build();
      case "fixed" -> FixedLimit.of(config.initialLimit());
      default -> throw new IllegalStateException("no limit " + config.limit());
    };
  }
}
