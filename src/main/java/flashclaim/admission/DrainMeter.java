package flashclaim.admission;

import java.time.Duration;
import java.time.Instant;

/**
 * How fast an instance's claims free their slots: the mean time a claim holds its slot, and the
 * drain rate, slots freed per second while claims wait for one, from which the admission tells
 * users their turns and the waits of refused claims. Not thread-safe: {@link FairAdmission} keeps
 * it under its lock, and tells it every slot freed and every claim that had to wait.
 *
 * <p>The drain is measured over an exponential window ({@code flashclaim.admission.drain-window})
 * from the gaps between slots freed while claims waited all along; such a measure stands ten
 * windows after the last such slot, and until at least {@value #MIN_BUSY_FREES} slots (weighted)
 * measured it, the mean hold over the limit stands in for it. Only claims that ran teach it: a
 * claim that failed or timed out with the store (frozen, unreachable) held its slot until its
 * deadline, and learning from it would tell every user refused during the outage to come back long
 * after the store returns.
 */
final class DrainMeter {
  /** Fewer slots freed while claims waited (weighted) than this measure no drain rate. */
  static final double MIN_BUSY_FREES = 20;

  /**
   * A measured drain rate stands this many windows after the last slot freed while claims waited.
   */
  private static final int WINDOWS_VALID = 10;

  private final double windowSeconds;
  private final double idleGrowth;
  private final double smoothing;

  /** Mean seconds a claim holds its slot; NaN until one has. */
  private double meanHoldSeconds = Double.NaN;

  /** Slots freed while claims waited, weighted by how recent. */
  private double busyFrees;

  /** The time between those, weighted alike. */
  private double busySeconds;

  /** The last slot freed while claims waited; null after one freed while none did. */
  private Instant lastBusyFree;

  /** When a slot was last freed while claims waited. */
  private Instant lastBusyAt = Instant.EPOCH;

  /** When a claim that came last found no free slot and waited. */
  private Instant lastWaitedAt = Instant.EPOCH;

  /** Every slot freed by a claim that ran, weighted by how recent. */
  private double frees;

  /** When a slot was last freed by a claim that ran. */
  private Instant lastFreeAt = Instant.EPOCH;

  /**
   * @param window the drain window ({@code drain-window})
   * @param idleGrowth the factor by which a measure grows each window without claims waiting
   *     ({@code idle-drain-growth})
   * @param smoothing the weight of the newest claim in the mean hold ({@code
   *     service-time-smoothing})
   */
  DrainMeter(Duration window, double idleGrowth, double smoothing) {
    this.windowSeconds = window.toNanos() / 1e9;
    this.idleGrowth = idleGrowth;
    this.smoothing = smoothing;
  }

  /** Whether a claim has run, so that there is a mean hold and a drain to tell turns from. */
  boolean measured() {
    return !Double.isNaN(meanHoldSeconds);
  }

  /** The mean time a claim that ran held its slot; NaN until one has. */
  double meanHoldSeconds() {
    return meanHoldSeconds;
  }

  /**
   * A claim that ran freed its slot at {@code now}, after holding it {@code heldSeconds}; {@code
   * claimsWait}: whether claims wait in line for it. Told before the waiting claims are admitted.
   */
  void ran(Instant now, double heldSeconds, boolean claimsWait) {
    meanHoldSeconds =
        Double.isNaN(meanHoldSeconds)
            ? heldSeconds
            : meanHoldSeconds + smoothing * (heldSeconds - meanHoldSeconds);
    frees = frees * kept(seconds(lastFreeAt, now)) + 1;
    lastFreeAt = now;
    if (!claimsWait) {
      lastBusyFree = null; // a slot may stay free now: the next gap says nothing of the drain
      return;
    }
    if (lastBusyFree != null) {
      if (!stands(now)) {
        // the measure of an earlier overload has lapsed: this one is measured afresh, not
        // weighted by the gaps between its own frees against the earlier one (which would then
        // stand again, as measured seconds or minutes ago, from this overload's second free on)
        busySeconds = 0;
        busyFrees = 0;
      }
      double gap = seconds(lastBusyFree, now);
      double keep = kept(gap);
      busySeconds = busySeconds * keep + gap;
      busyFrees = busyFrees * keep + 1;
      lastBusyAt = now;
    }
    lastBusyFree = now;
  }

  /** A claim that did not run (failed, timed out) freed its slot: it teaches nothing. */
  void failed() {
    lastBusyFree = null;
  }

  /** A claim that came last found no free slot at {@code now} and waits. */
  void waited(Instant now) {
    lastWaitedAt = now;
  }

  /**
   * Seconds between two slots freed when all are busy: as measured over the latest time that
   * claims waited for one, while that stands; else the mean hold over {@code limit} (which
   * misjudges it when the limit moves, or claims hold their slots longer while they wait for the
   * cores); never more than between the slots freed over the last window, waiting or not. NaN
   * until a claim has been measured. {@code lineEmpty}: whether no claim waits now.
   *
   * <p>A measure that stands while no claim has waited for more than a window is a floor, not the
   * drain: the instance served everything that came, and what came was paced by the turns told
   * from that measure (users come back at their turns), so the slots freed follow the measure and
   * never show a faster drain. It then grows by {@code idle-drain-growth} each further window, up
   * to the limit over the mean hold: turns are told sooner, until claims wait again and the drain
   * is measured.
   */
  double secondsPerSlot(Instant now, int limit, boolean lineEmpty) {
    double perSlot;
    // the mean hold over the limit: NaN until a claim has been measured
    double open = meanHoldSeconds / limit;
    if (busyFrees >= MIN_BUSY_FREES && stands(now)) {
      perSlot = busySeconds / busyFrees;
      Instant waited = lastWaitedAt.isAfter(lastBusyAt) ? lastWaitedAt : lastBusyAt;
      double idleWindows = seconds(waited, now) / windowSeconds - 1;
      if (lineEmpty && idleWindows > 0 && open < perSlot) {
        perSlot = Math.max(open, perSlot / Math.pow(idleGrowth, idleWindows));
      }
    } else {
      perSlot = open;
    }
    // the slots freed per second over the last window, waiting or not, are a floor of the drain: a
    // rate measured in a slow moment (a cold start) is not kept while the instance serves faster
    // (from at least as many slots as a measure needs: one slot just freed is no rate)
    double recent = frees * kept(seconds(lastFreeAt, now));
    return recent >= MIN_BUSY_FREES && !(perSlot < windowSeconds / recent)
        ? windowSeconds / recent
        : perSlot;
  }

  /**
   * Whether the drain measured while claims waited still stands at {@code now}: ten windows after
   * a slot was last freed while claims waited, it has lapsed.
   */
  private boolean stands(Instant now) {
    return seconds(lastBusyAt, now) <= WINDOWS_VALID * windowSeconds;
  }

  /** The share of a drain measure kept after {@code seconds}: an exponential drain window. */
  private double kept(double seconds) {
    return Math.exp(-seconds / windowSeconds);
  }

  private static double seconds(Instant from, Instant to) {
    return Duration.between(from, to).toNanos() / 1e9;
  }
}
