package flashclaim.http.shed;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * Shedding when the instance itself falls behind ({@code flashclaim.http.lag-shed.*}, {@link
 * LagShedding}): while its event loops run late and it refuses claims, the claims that run at once
 * get a ceiling below their adaptive limit, so that the cores go to reading and answering the
 * requests waiting unread.
 *
 * @param enabled lower the ceiling while the loops run late and claims are refused; false: the
 *     adaptive limit alone
 * @param target the event loops' lateness ({@code flashclaim_http_event_loop_lag_seconds}) above
 *     which the ceiling is lowered
 * @param keep the share of the claims running at once that a cut keeps (the ceiling becomes that
 *     share of the lower of the ceiling and the adaptive limit)
 * @param minSlots the ceiling never goes below this many claims at once
 * @param hold the least time between two cuts, so that a cut shows in the lag before the next;
 *     and a cut needs a claim refused within this time (late loops alone are not cut for). The
 *     ceiling rises by one slot every {@code flashclaim.http.lag-probe-interval} while the loops
 *     are on time, and is gone once it reaches the adaptive limit
 */
@ConfigurationProperties("flashclaim.http.lag-shed")
public record LagShedConfig(
    @Bindable(defaultValue = "true") boolean enabled,
    @Bindable(defaultValue = "100ms") Duration target,
    @Bindable(defaultValue = "0.7") double keep,
    @Bindable(defaultValue = "4") int minSlots,
    @Bindable(defaultValue = "500ms") Duration hold) {

  /** Refuses a configuration that cannot work: the service does not start with it. */
  public LagShedConfig {
    if (target.isNegative() || target.isZero()) {
      throw new IllegalStateException("flashclaim.http.lag-shed.target must be positive");
    }
    if (!(keep > 0 && keep < 1)) {
      throw new IllegalStateException("flashclaim.http.lag-shed.keep must be above 0 and below 1");
    }
    if (minSlots < 1) {
      throw new IllegalStateException("flashclaim.http.lag-shed.min-slots must be at least 1");
    }
    if (hold.isNegative()) {
      throw new IllegalStateException("flashclaim.http.lag-shed.hold must not be negative");
    }
  }
}
