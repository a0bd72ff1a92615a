package flashclaim.http;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;

/**
 * The admission of API requests as meters: {@value #IN_FLIGHT} (requests being worked on) and
 * {@value #SHED} (requests refused with 503, tagged {@code reason} {@code overloaded} or {@code
 * shutting_down}).
 */
@Singleton
@Requires(beans = MeterRegistry.class)
final class HttpMeters implements MeterBinder {
  static final String IN_FLIGHT = "flashclaim.http.in.flight";
  static final String SHED = "flashclaim.http.shed";

  private final LoadShedFilter admission;

  HttpMeters(LoadShedFilter admission) {
    this.admission = admission;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    Gauge.builder(IN_FLIGHT, admission, LoadShedFilter::inFlight)
        .description("API requests this instance is working on")
        .register(registry);
    FunctionCounter.builder(SHED, admission, LoadShedFilter::shedCount)
        .description("API requests refused with 503")
        .tag("reason", "overloaded")
        .register(registry);
    FunctionCounter.builder(SHED, admission, LoadShedFilter::refusedWhileDraining)
        .description("API requests refused with 503")
        .tag("reason", "shutting_down")
        .register(registry);
  }
}
