package flashclaim.admission;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * One order across the fleet ({@code flashclaim.admission.fleet.*}, {@link FleetOrder}): how often
 * an instance posts how far its appointment book reaches and reads the others', and when an entry
 * no longer counts.
 *
 * @param enabled share the books' reach through the store: a new user is told no earlier turn than
 *     the furthest turn another instance told; false keeps each instance's book to itself
 * @param interval how often an instance writes its entry (only while its book reaches ahead, and
 *     once when it stops) and reads the others'; under a second, on Firestore, an instance's
 *     writes go round one document per fraction (4 at 250ms), each written at most once a second.
 *     A quarter of a second lets the floor reach the other instances within the first second of a
 *     sale; a larger fleet may take a second, for fewer reads (docs/admission.md)
 * @param staleAfter an entry older than this, on the store's clock, no longer counts (its instance
 *     died or cannot reach the store) and is deleted by the next instance that reads it; a floor
 *     read longer ago than this is dropped when the store cannot be read
 * @param holdForOthers each instance also posts the earliest first arrival among the users it told
 *     to come back who are due now ({@code hold-grace}), and no instance gives a free slot to a
 *     claim that first arrived more than {@code hold-slack} after the earliest another instance
 *     posted, while that entry is at most four intervals old (and younger than stale-after): a
 *     user due back may come to any instance. False: a user due back is held for by the instance
 *     that told them only
 * @param holdSlack how much later than another instance's earliest held arrival a claim may have
 *     first arrived and still be given a free slot: the fleet's order is kept to within this.
 *     Instances stamp arrivals with their own clocks, so it should be at least their skew
 */
@ConfigurationProperties("flashclaim.admission.fleet")
public record FleetConfig(
    @Bindable(defaultValue = "true") boolean enabled,
    @Bindable(defaultValue = "250ms") Duration interval,
    @Bindable(defaultValue = "3s") Duration staleAfter,
    @Bindable(defaultValue = "true") boolean holdForOthers,
    @Bindable(defaultValue = "150ms") Duration holdSlack) {

  /** An entry's earliest held arrival counts while the entry is younger than this. */
  public Duration frontMaxAge() {
    Duration four = interval.multipliedBy(4);
    return four.compareTo(staleAfter) < 0 ? four : staleAfter;
  }

  /** Refuses a configuration that cannot work: the service does not start with it. */
  public FleetConfig {
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalStateException("flashclaim.admission.fleet.interval must be positive");
    }
    if (staleAfter.compareTo(interval) <= 0) {
      throw new IllegalStateException(
          "flashclaim.admission.fleet.stale-after must be longer than fleet.interval");
    }
    if (holdSlack.isNegative()) {
      throw new IllegalStateException("flashclaim.admission.fleet.hold-slack must not be negative");
    }
  }
}
