package flashclaim.admission;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One order of new users across the instances that share a store. Each instance keeps its own
 * appointment book ({@link FairAdmission}); an instance that is busier or slower than the others
 * tells its new users later turns, and without this a fast instance would serve later clicks while
 * users who clicked earlier elsewhere sleep off their Retry-After. So every {@code interval}, on
 * one thread of its own, an instance
 *
 * <ol>
 *   <li>writes how far beyond now its own book reaches ({@link FairAdmission#promised}: the turns
 *       of its own new users, never the floor it was told) to its own entry of the {@link
 *       FleetBoard}, while that is above zero, and deletes its entry once when it falls to zero:
 *       an idle instance writes nothing;
 *   <li>reads the other instances' fresh entries, and keeps the furthest reach among them, less
 *       each entry's age on the store's clock, as the <em>fleet floor</em>: no new user here is
 *       told a turn before it ({@link FairAdmission#useFleetFloor}).
 * </ol>
 *
 * With {@code hold-for-others}, the entry also holds the earliest first arrival among the users the
 * instance told to come back who are due now ({@link FairAdmission#heldFrom}), and is written
 * while there is one; the earliest of the others' (of entries at most four intervals old), plus
 * {@code hold-slack}, is the <em>fleet front</em>: no free slot here goes to a claim that first
 * arrived after it ({@link FairAdmission#useFleetFront}). A user on their way back may come to any
 * instance; every instance keeps the slot that frees up for them rather than give it to a later
 * click.
 *
 * The floor counts down with this instance's clock between reads (only its rate matters, not its
 * offset). The floor never blocks or fails a claim: a claim reads the last value from memory, a
 * store call that fails is logged (at most once a minute) and the last floor kept only until it is
 * {@code stale-after} old, then it is zero. Store calls are the instance's own: one write per
 * interval at most, one read of the board per interval. On a clean shutdown the instance deletes
 * its entry; one that dies leaves it, and it stops counting {@code stale-after} later.
 */
public final class FleetOrder implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(FleetOrder.class);
  private static final Duration LOG_EVERY = Duration.ofMinutes(1);

  private final FleetBoard board;
  private final FleetConfig config;
  private final FairAdmission admission;
  private final Clock clock;
  private final String instanceId;
  private ScheduledThreadPoolExecutor executor; // null until started

  /** Whether this instance's entry may be on the board; only the tick thread touches it. */
  private volatile boolean posted;
  /** When the furthest reach of the others, as last read, passes; this instance's clock. */
  private volatile Instant floorUntil = Instant.EPOCH;
  /** When the last read of the board started; this instance's clock. */
  private volatile Instant readAt = Instant.EPOCH;
  /** The earliest user due back to another instance, as last read, plus the slack; null: none. */
  private volatile FairAdmission.FleetFront front;
  private Instant lastLogged = Instant.EPOCH; // guarded by this

  /** The order of {@code admission} on {@code board}, as the instance {@code instanceId}. */
  public FleetOrder(
      FleetBoard board,
      FleetConfig config,
      FairAdmission admission,
      Clock clock,
      String instanceId) {
    this.board = board;
    this.config = config;
    this.admission = admission;
    this.clock = clock;
    this.instanceId = instanceId;
  }

  /** The order of {@code admission} as a new instance, with a random id. */
  public static FleetOrder of(
      FleetBoard board, FleetConfig config, FairAdmission admission, Clock clock) {
    return new FleetOrder(board, config, admission, clock, UUID.randomUUID().toString());
  }

  /** This instance's id on the board. */
  public String instanceId() {
    return instanceId;
  }

  /** Makes {@code admission} use the fleet floor and runs {@link #tick} every interval. */
  public synchronized FleetOrder start() {
    admission.useFleetFloor(this::floor);
    if (config.holdForOthers()) {
      admission.useFleetFront(this::front);
    }
    executor = ScheduledWaitTimer.oneDaemonThread("admission-fleet");
    long every = config.interval().toNanos();
    executor.scheduleWithFixedDelay(this::tick, 0, every, TimeUnit.NANOSECONDS);
    return this;
  }

  /**
   * One round: this instance's entry written (or withdrawn), then the others' read. Never throws;
   * each store call that fails is logged and left for the next round.
   */
  public void tick() {
    Duration promised = admission.promised();
    Instant heldFrom = config.holdForOthers() ? admission.heldFrom() : null;
    try {
      if (!promised.isZero() || heldFrom != null) {
        posted = true; // set before the write: a write that failed may still have landed
        board.publish(instanceId, promised, heldFrom);
      } else if (posted) {
        board.withdraw(instanceId);
        posted = false;
      }
    } catch (RuntimeException e) {
      failed("write this instance's entry", e);
    }
    Instant started = clock.instant();
    try {
      Duration furthest = Duration.ZERO;
      FleetBoard.Entry earliest = null;
      for (FleetBoard.Entry entry : board.others(instanceId, config.staleAfter())) {
        if (entry.ahead().compareTo(furthest) > 0) {
          furthest = entry.ahead();
        }
        if (entry.heldFrom() != null
            && entry.age().compareTo(config.frontMaxAge()) < 0
            && (earliest == null || entry.heldFrom().isBefore(earliest.heldFrom()))) {
          earliest = entry;
        }
      }
      floorUntil = started.plus(furthest);
      readAt = started;
      front =
          earliest == null
              ? null
              : new FairAdmission.FleetFront(
                  earliest.heldFrom().plus(config.holdSlack()),
                  started.plus(config.frontMaxAge()).minus(earliest.age()));
      admission.fleetRead();
    } catch (RuntimeException e) {
      failed("read the other instances' entries", e);
    }
  }

  /**
   * How far beyond now the other instances' books reach, as last read, counted down since; zero
   * when the last read that succeeded is {@code stale-after} old.
   */
  public Duration floor() {
    Instant now = clock.instant();
    if (Duration.between(readAt, now).compareTo(config.staleAfter()) >= 0
        || !floorUntil.isAfter(now)) {
      return Duration.ZERO;
    }
    return Duration.between(now, floorUntil);
  }

  /**
   * The earliest first arrival of a user due back to another instance, as last read, plus {@code
   * hold-slack}: this instance gives no free slot to a later one while the reading stands; null
   * when none does.
   */
  public FairAdmission.FleetFront front() {
    return front;
  }

  /** Stops the rounds and deletes this instance's entry, if it may be on the board. */
  @Override
  public void close() {
    synchronized (this) {
      if (executor != null) {
        executor.shutdownNow();
        try {
          executor.awaitTermination(config.interval().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
    admission.useFleetFloor(() -> Duration.ZERO);
    admission.useFleetFront(() -> null);
    admission.fleetRead();
    if (posted) {
      try {
        board.withdraw(instanceId);
        posted = false;
      } catch (RuntimeException e) {
        LOG.warn(
            "could not delete this instance's entry of the fleet board; it stops counting {}"
                + " after its last write: {}",
            config.staleAfter(),
            e.getMessage());
      }
    }
  }

  private void failed(String what, RuntimeException e) {
    Instant now = clock.instant();
    synchronized (this) {
      if (Duration.between(lastLogged, now).compareTo(LOG_EVERY) < 0) {
        return;
      }
      lastLogged = now;
    }
    LOG.warn(
        "admission fleet order: could not {} (next try in {}; logged at most once a minute): {}",
        what,
        config.interval(),
        e.getMessage());
  }
}
