package flashclaim;

import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;
import java.time.Clock;

/** The service's clock, a bean so that tests can replace it. */
@Factory
final class ClockFactory {
  @Singleton
  Clock clock() {
    return Clock.systemUTC();
  }
}
