package flashclaim.admission;

import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limiter.AbstractLimiter;
import io.micronaut.core.annotation.Nullable;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Admission of claims on one instance (G6, G7). At most the limiter's limit of claims hold a slot
 * at once; a claim that finds none free waits for one, without a thread, and the waiting claims
 * are served in order of their users' first arrival (their {@link Ticket}), whatever order they
 * came in. A claim is refused at once, with the time to its expected turn as Retry-After, when
 *
 * <ul>
 *   <li>its expected turn comes after the end of its wait ({@link Reason#DEADLINE}): its place in
 *       line divided by the drain rate: slots freed per second while claims wait for one, or,
 *       until that is measured, the limit over the mean time a claim holds its slot;
 *   <li>{@code maxQueued} claims wait already and it arrived after all of them ({@link
 *       Reason#QUEUE_FULL}); if it arrived earlier, the latest arrival gives up its place instead;
 *   <li>the instance drains for shutdown ({@link Reason#SHUTTING_DOWN}).
 * </ul>
 *
 * A claim still waiting at the end of its wait is refused then ({@link Reason#DEADLINE}).
 *
 * <p>With appointments (the default), a new user, one who comes without a ticket, is also given
 * the next turn in the instance's appointment book: one drain interval (one over the drain rate)
 * after the turn of the new user before it, or after now if the book has run out. A user
 * whose turn comes after the end of their wait is refused at once and told that turn as
 * Retry-After, so that users come back in the order they first came, each at about the time the
 * instance will have served everyone before them, and a later user is never told an earlier turn.
 * A turn beyond {@code max-retry-after} is told as that, and travels in the user's ticket: coming
 * back before it, they are told the rest of the wait, so that users told the longest Retry-After
 * do not all come back at once, in the place of those whose turns come first.
 * A returning user (with a ticket) is not booked again: they wait by their first arrival, ahead of
 * every later one. With a fleet floor ({@link #useFleetFloor}, {@link FleetOrder}), no new user
 * here is told a turn before the furthest turn another instance's own book told its new users,
 * who clicked earlier; the floor is not added to this instance's book. Without appointments,
 * Retry-After is the expected turn in the line plus jitter, so that refused clients do not come
 * back in lockstep.
 *
 * <p>The limit is a Netflix concurrency-limits {@link AbstractLimiter} (fixed, or adapting to the
 * latency the claims meet); this class adds the fair wait in front of it. Threads: none wait here;
 * memory: at most {@code maxQueued} waiting claims and their timers.
 */
public final class FairAdmission {

  /** What a claim's admission came to. */
  public sealed interface Entry {
    /** The claim holds a slot until it releases {@code permit}. */
    record Admitted(Permit permit) implements Entry {}

    /**
     * The claim is refused; the client should retry after {@code retryAfter}. {@code turn}, when
     * not null, is the turn the user was told, which lies beyond {@code retryAfter} (capped at
     * {@code max-retry-after}): their ticket carries it, and coming back before it they are told
     * the rest of the wait ({@link #enterAgain(Instant, Instant, Instant)}).
     */
    record Refused(Reason reason, Duration retryAfter, @Nullable Instant turn) implements Entry {
      public Refused(Reason reason, Duration retryAfter) {
        this(reason, retryAfter, null);
      }
    }
  }

  /** Why a claim was refused. */
  public enum Reason {
    /** The most claims that may wait do, and all of them arrived earlier. */
    QUEUE_FULL,
    /** Its turn would come, or came, after the end of its wait. */
    DEADLINE,
    /** The instance is draining for shutdown. */
    SHUTTING_DOWN
  }

  /** How the work of an admitted claim ended, as the limit algorithm learns from it. */
  public enum Result {
    /** It ran; its latency is a sample of the store's. */
    SUCCESS,
    /** It failed or timed out: a sign of overload. */
    DROPPED,
    /** It never ran; its latency says nothing. */
    IGNORED
  }

  /**
   * What a refused new user is told of their turn in the book when it comes after their wait, from
   * that turn and their first arrival: e.g. no later than about when the campaign's pool is
   * expected to be gone.
   */
  @FunctionalInterface
  public interface TurnToTell {
    /** Every turn as the book gives it. */
    TurnToTell AS_BOOKED = (turn, arrival) -> turn;

    Instant tell(Instant turn, Instant arrival);
  }

  /** A held slot. Released exactly once; later releases do nothing. */
  public final class Permit {
    private final Limiter.Listener listener;
    private final Instant admittedAt;
    private final AtomicBoolean held = new AtomicBoolean(true);

    private Permit(Limiter.Listener listener, Instant admittedAt) {
      this.listener = listener;
      this.admittedAt = admittedAt;
    }

    /** Gives the slot back, which may admit the next waiting claim. */
    public void release(Result result) {
      if (held.compareAndSet(true, false)) {
        released(this, result);
      }
    }
  }

  private static final Logger LOG = LoggerFactory.getLogger(FairAdmission.class);
  /** What a claim refused from the line is told while no claim has been measured. */
  private static final Duration UNMEASURED_WAIT = Duration.ofSeconds(1);
  /** What this thread is telling claims, while it does; see {@link #run}. */
  private static final ThreadLocal<Deque<Runnable>> TELLING = new ThreadLocal<>();

  private final AbstractLimiter<Void> limiter;
  private final int maxQueued;
  private final Duration maxRetryAfter;
  private final Duration maxTurn;
  private final Duration minRetryAfter;
  private final double retryJitter;
  private final Clock clock;
  private final WaitTimer timer;
  private final DoubleSupplier random;
  private final Map<Reason, LongAdder> refused = new EnumMap<>(Reason.class);
  private final LongAdder waited = new LongAdder();
  private final LongAdder waitedNanos = new LongAdder();

  /** At most this many turns are remembered by arrival (a few seconds of new users at most). */
  private static final int MAX_REMEMBERED_TURNS = 65_536;

  private final Object lock = new Object();
  /** The waiting claims by first arrival; guarded by {@code lock}. */
  private final Line<Waiter> queue = new Line<>();
  /** Guarded by {@code lock}. */
  private long sequence;
  /** Guarded by {@code lock}. */
  private boolean draining;
  /** The mean hold and the drain rate; guarded by {@code lock}. */
  private final DrainMeter drain;
  /**
   * The same mean hold, for readers outside the lock (each claim's wait is bounded by it before it
   * enters); zero until a claim has run.
   */
  private volatile Duration expectedHold = Duration.ZERO;
  /** New users' turns are booked at this many times the drain rate. */
  private final double bookHeadroom;
  /** Serve a user back before their told turn when nothing else would use the free slot. */
  private final boolean earlyWhenIdle;
  /** Whether new users are given appointments (see the class comment). */
  private final boolean appointments;
  /**
   * What a user told to come back who arrived earlier counts for in the place of a claim refused
   * from the line: one over {@code returns-per-slot}; 0 when off.
   */
  private final double awayWeight;
  /** The turn of the last new user given an appointment; guarded by {@code lock}. */
  private Instant bookedUntil = Instant.EPOCH;
  /**
   * The turns of the latest new users given one, by their first arrival, while those turns are
   * ahead; guarded by {@code lock}. A new user read after others who arrived later (its request
   * waited longer before this instance saw it) takes its place among them from here.
   */
  private final NavigableMap<Instant, Instant> turnsByArrival = new TreeMap<>();
  /** Whether refused users come back when told; guarded by {@code lock}. */
  private final ShowUps showUps = new ShowUps();
  /** The latest time a refused user was told to come back at; guarded by {@code lock}. */
  private Instant lastDueAt = Instant.EPOCH;
  /** Times the book was given up because nobody came back for its turns. */
  private final LongAdder bookResets = new LongAdder();
  /** Times free slots were left to a user due back rather than given to a later arrival. */
  private final LongAdder slotsHeld = new LongAdder();
  private final LongAdder servedEarly = new LongAdder();
  /**
   * The latest turn a fleet floor made this instance tell a new user; guarded by {@code lock}. New
   * users are told no earlier turn, so a floor that falls between two reads never tells a later
   * click an earlier turn. Kept apart from the book, which holds this instance's own turns only.
   */
  private Instant floorUntil = Instant.EPOCH;
  /**
   * The users told to come back while they are due, who hold later arrivals back; null when off
   * ({@code hold-grace} 0); guarded by {@code lock}.
   */
  private final @Nullable HeldBack heldBack;

  /** When a slot held for a user due back is next looked at again; null when none is; guarded. */
  private Instant wakeAt;

  /**
   * The longest that free slots are left to users due back, here or elsewhere, while claims wait
   * in line, in a row: {@code max-holding}.
   */
  private final Duration maxHolding;

  /**
   * Since when free slots have been left to users due back while claims waited, without a moment
   * in which every slot was taken or nobody waited; null when they are not; guarded by {@code
   * lock}.
   */
  private @Nullable Instant holdingSince;

  /** Times free slots went to the line because they had been held for {@link #maxHolding}. */
  private final LongAdder holdsCut = new LongAdder();

  /** How far beyond now the other instances' books reach ({@link FleetOrder}); zero alone. */
  private volatile Supplier<Duration> fleetFloor = () -> Duration.ZERO;

  /** The latest first arrival the fleet serves now ({@link FleetOrder}); null alone. */
  private volatile Supplier<@Nullable FleetFront> fleetFront = () -> null;

  /** Times free slots were left to a user due back whom another instance told to come back. */
  private final LongAdder fleetSlotsHeld = new LongAdder();

  /**
   * What the other instances hold back, as last read: while it stands, no free slot here goes to
   * a claim that first arrived after {@code servingUpTo}.
   *
   * @param servingUpTo the earliest first arrival of a user due back to another instance, plus the
   *     slack
   * @param until when that reading no longer counts, on this instance's clock
   */
  public record FleetFront(Instant servingUpTo, Instant until) {}

  /**
   * @param limiter the concurrency limit; it is acquired with a null context
   * @param random uniform values in [0, 1), for the jitter of Retry-After
   */
  public FairAdmission(
      AdmissionConfig config,
      AbstractLimiter<Void> limiter,
      Clock clock,
      WaitTimer timer,
      DoubleSupplier random) {
    this.limiter = limiter;
    this.maxQueued = config.maxQueued();
    this.maxRetryAfter = config.maxRetryAfter();
    this.maxTurn = config.maxTurn();
    this.minRetryAfter = config.minRetryAfter();
    this.retryJitter = config.retryJitter();
    this.drain =
        new DrainMeter(
            config.drainWindow(), config.idleDrainGrowth(), config.serviceTimeSmoothing());
    this.bookHeadroom = config.bookHeadroom();
    this.earlyWhenIdle = config.earlyWhenIdle();
    this.clock = clock;
    this.timer = timer;
    this.random = random;
    this.appointments = config.appointments();
    this.awayWeight = config.returnsPerSlot() == 0 ? 0 : 1 / config.returnsPerSlot();
    this.maxHolding = config.maxHolding();
    this.heldBack =
        config.holdGrace().isZero() || !appointments
            ? null
            : new HeldBack(config.holdGrace(), config.holdSlack(), MAX_REMEMBERED_TURNS);
    for (Reason reason : Reason.values()) {
      refused.put(reason, new LongAdder());
    }
  }

  /**
   * Admits the claim of a new user, who arrived at {@code arrival}, now or once a slot is free for
   * it, or refuses it; it waits for a slot at most until {@code waitUntil}. With appointments, the
   * user is given the next turn in the book first, and refused at once if it comes too late. The
   * stage completes on the thread that frees the slot or ends the wait; cancelling it withdraws the
   * claim.
   */
  public CompletionStage<Entry> enter(Instant arrival, Instant waitUntil) {
    return enter(arrival, waitUntil, TurnToTell.AS_BOOKED);
  }

  /**
   * Admits, as {@link #enter(Instant, Instant)}, the claim of a new user whose turn, when it comes
   * after their wait, is told as {@code turnToTell} says (asked only then; never later than the
   * turn, nor before now): e.g. no later than about when the campaign's pool is expected to be
   * gone, so that a later turn does not keep them waiting for nothing.
   */
  public CompletionStage<Entry> enter(
      Instant arrival, Instant waitUntil, TurnToTell turnToTell) {
    return enter(arrival, null, waitUntil, false, turnToTell);
  }

  /**
   * Admits, as {@link #enter}, the claim of a user who comes back with a ticket that says they
   * first arrived at {@code arrival}: they wait by that arrival and are not given a new turn.
   */
  public CompletionStage<Entry> enterAgain(Instant arrival, Instant waitUntil) {
    return enterAgain(arrival, null, waitUntil);
  }

  /**
   * Admits, as {@link #enterAgain(Instant, Instant)}, a user whose ticket carries the turn {@code
   * turn} they were told beyond the longest Retry-After: coming back before it, and so before
   * users whose turns come first, they are refused at once and told the rest of the wait, unless
   * it ends within their wait.
   */
  public CompletionStage<Entry> enterAgain(
      Instant arrival, @Nullable Instant turn, Instant waitUntil) {
    return enter(arrival, turn, waitUntil, true, TurnToTell.AS_BOOKED);
  }

  /**
   * The refusal {@link #enter} (or, with {@code returning}, {@link #enterAgain}) would answer at
   * once, given with all its effects (the turn booked, the refusal counted); empty, with nothing
   * changed, when that claim would be admitted or would wait, or when entering it would give up
   * another claim's place or the instance drains. So a caller that must not hold a claim (the door
   * of the claim route, which answers before the framework) refuses exactly the claims that
   * entering would refuse at once, and leaves every other to {@link #enter}.
   */
  public Optional<Entry.Refused> refuseAtOnce(
      Instant arrival, Instant waitUntil, boolean returning, TurnToTell turnToTell) {
    return refuseAtOnce(arrival, null, waitUntil, returning, turnToTell);
  }

  /**
   * {@link #refuseAtOnce(Instant, Instant, boolean, TurnToTell)} of a user whose ticket carries
   * the turn {@code toldTurn} ({@code null}: none), as {@link #enterAgain(Instant, Instant,
   * Instant)} would refuse it.
   */
  public Optional<Entry.Refused> refuseAtOnce(
      Instant arrival,
      @Nullable Instant toldTurn,
      Instant waitUntil,
      boolean returning,
      TurnToTell turnToTell) {
    synchronized (lock) {
      if (draining) {
        return Optional.empty();
      }
      Instant now = clock.instant();
      if (returning && beforeTheirTurn(toldTurn, waitUntil) && !idleFor(arrival, now)) {
        showUps.back(now);
        return Optional.of(toldTurn(toldTurn, arrival, now));
      }
      Turn turn = null;
      if (!returning && appointments) {
        Duration floor = fleetFloor();
        if (drain.measured() || !floor.isZero()) {
          if (idleWithoutReturns(now)) {
            return Optional.empty(); // a slot is free: entering resets the book and admits
          }
          turn = nextTurn(now, floor, arrival);
          if (turn.told().isAfter(waitUntil)) {
            return Optional.of(tellTurn(turn, turnToTell, now));
          }
        }
      }
      if (limiter.getInflight() < limiter.getLimit()) {
        return Optional.empty(); // a slot may be free: it would be admitted
      }
      int ahead = queue.noLaterThan(arrival);
      Reason reason;
      int told;
      if (queue.size() + 1 > maxQueued) {
        if (ahead < queue.size()) {
          return Optional.empty(); // it would take a later arrival's place
        }
        reason = Reason.QUEUE_FULL;
        told = queue.size();
      } else {
        Duration wait = Duration.between(now, waitUntil);
        if (!wait.isNegative()
            && !wait.isZero()
            && expectedWaitSeconds(ahead, now) <= wait.toNanos() / 1e9) {
          return Optional.empty(); // it would wait for its turn
        }
        reason = Reason.DEADLINE;
        told = ahead;
      }
      if (turn != null) {
        take(turn, turn.told(), now);
      }
      if (returning) {
        showUps.back(now);
      }
      return Optional.of(refusal(reason, told, arrival, now));
    }
  }

  private CompletionStage<Entry> enter(
      Instant arrival,
      @Nullable Instant toldTurn,
      Instant waitUntil,
      boolean returning,
      TurnToTell turnToTell) {
    Waiter waiter;
    List<Runnable> effects = new ArrayList<>();
    synchronized (lock) {
      if (draining) {
        return CompletableFuture.completedFuture(shutDown());
      }
      Instant now = clock.instant();
      if (returning) {
        showUps.back(now);
        if (beforeTheirTurn(toldTurn, waitUntil)) {
          if (!idleFor(arrival, now)) {
            return CompletableFuture.completedFuture(toldTurn(toldTurn, arrival, now));
          }
          servedEarly.increment();
        }
        if (heldBack != null) {
          heldBack.back(arrival);
        }
      } else if (appointments) {
        Duration floor = fleetFloor();
        if (drain.measured() || !floor.isZero()) {
          if (idleWithoutReturns(now)) {
            bookResets.increment();
            bookedUntil = now; // nobody is coming back for the turns it holds
            turnsByArrival.clear();
            floorUntil = now;
          }
          Turn turn = nextTurn(now, floor, arrival);
          if (turn.told().isAfter(waitUntil)) {
            return CompletableFuture.completedFuture(tellTurn(turn, turnToTell, now));
          }
          take(turn, turn.told(), now);
        }
      }
      waiter = new Waiter(arrival, sequence++, now);
      queue.add(waiter);
      admitWhileFree(effects);
      if (!queue.isEmpty()) {
        drain.waited(now);
      }
      while (queue.size() > maxQueued) {
        Waiter latest = queue.pollLast();
        effects.add(
            latest.refuse(refusal(Reason.QUEUE_FULL, queue.size(), latest.arrival, now)));
      }
      if (queue.contains(waiter)) {
        int ahead = queue.before(waiter);
        Duration wait = Duration.between(now, waitUntil);
        if (wait.isNegative()
            || wait.isZero()
            || expectedWaitSeconds(ahead, now) > wait.toNanos() / 1e9) {
          queue.remove(waiter);
          effects.add(waiter.refuse(refusal(Reason.DEADLINE, ahead, arrival, now)));
        } else {
          waiter.waited = true;
          waiter.cancelTimer = timer.schedule(wait, () -> expire(waiter));
        }
      }
    }
    run(effects);
    waiter.future.whenComplete(
        (entry, error) -> {
          if (error instanceof CancellationException) {
            withdraw(waiter);
          }
        });
    return waiter.future;
  }

  /** Refuses every waiting claim and every later one with {@link Reason#SHUTTING_DOWN}. */
  public void drain() {
    List<Runnable> effects = new ArrayList<>();
    synchronized (lock) {
      draining = true;
      for (Waiter waiter : queue) {
        effects.add(waiter.refuse(shutDown()));
      }
      queue.clear();
    }
    run(effects);
  }

  /** The current limit of claims that hold a slot at once. */
  public int limit() {
    return limiter.getLimit();
  }

  /** Claims that hold a slot now. */
  public int inFlight() {
    return limiter.getInflight();
  }

  /** Claims that wait for a slot now. */
  public int queued() {
    synchronized (lock) {
      return queue.size();
    }
  }

  /** How far beyond now the appointment book reaches: zero when no new user's turn is ahead. */
  public Duration booked() {
    synchronized (lock) {
      return reach(clock.instant());
    }
  }

  /**
   * How far beyond now this instance's own book reaches (the turns of its own new users, not those
   * a fleet floor made it tell), times the share of refused users who come back ({@link ShowUps}).
   * What the fleet must not tell a later click an earlier turn than ({@link FleetOrder}).
   */
  public Duration promised() {
    synchronized (lock) {
      return toldReach(clock.instant());
    }
  }

  /** How far beyond {@code now} the book reaches; zero when it has run out. Must hold the lock. */
  private Duration reach(Instant now) {
    return bookedUntil.isAfter(now) ? Duration.between(now, bookedUntil) : Duration.ZERO;
  }

  /**
   * Of the book's reach, the share that users come back ({@link ShowUps}): how far ahead the turns
   * told to new users reach. Must hold the lock.
   */
  private Duration toldReach(Instant now) {
    return told(reach(now), now);
  }

  /**
   * Of a wait of {@code reach} in the book, the share that users come back ({@link ShowUps}): what
   * a user is told. Must hold the lock.
   */
  private Duration told(Duration reach, Instant now) {
    double share = showUps.share(now);
    return share == 1 ? reach : Duration.ofNanos(Math.round(reach.toNanos() * share));
  }

  /**
   * Starts every new user's turn at least {@code floor} beyond now: how far the other instances'
   * books reach, as {@link FleetOrder} reads them. It must answer at once, without the store.
   */
  public void useFleetFloor(Supplier<Duration> floor) {
    this.fleetFloor = floor;
  }

  /**
   * Leaves free slots idle rather than give them to a claim that first arrived after {@code front}'s
   * {@code servingUpTo}, while it stands: a user who clicked earlier is due back from another
   * instance, and may come here; a later click served meanwhile would take their coupon. It must
   * answer at once, without the store; a new reading is announced with {@link #fleetRead}.
   */
  public void useFleetFront(Supplier<@Nullable FleetFront> front) {
    this.fleetFront = front;
  }

  /** The fleet's reading changed: free slots are given again to whom it allows. */
  public void fleetRead() {
    wake();
  }

  /**
   * The earliest first arrival among the users this instance told to come back who are due now
   * ({@code hold-grace}); null when none is (or the hold is off). They may come back to any
   * instance: the other instances give no free slot to a later click while it stands ({@link
   * FleetOrder}). Claims waiting in this instance's line are not posted: only this instance can
   * serve them, and another instance that left its slots idle for them would not serve them sooner.
   */
  public @Nullable Instant heldFrom() {
    if (heldBack == null) {
      return null;
    }
    synchronized (lock) {
      return heldBack.earliestDue(clock.instant());
    }
  }

  /**
   * Times, so far, that free slots were left idle because a user who clicked earlier than the first
   * claim waiting here was due back to another instance that told them to come back ({@link
   * #useFleetFront}).
   */
  public long fleetSlotsHeld() {
    return fleetSlotsHeld.sum();
  }

  /** How far beyond now the other instances' books reach, as last read; zero without a fleet. */
  public Duration fleetFloor() {
    Duration floor = fleetFloor.get();
    return floor.isNegative() ? Duration.ZERO : floor;
  }

  /**
   * A refused user, first arrived at {@code arrival}, came back with their ticket and was answered
   * without admission (the pool was proven empty, or the campaign closed meanwhile): they came
   * back as told, and count so, or a sale that ended would leave the share at 0 for the next one;
   * and they hold no slot against later arrivals any longer, of this campaign or another.
   */
  public void cameBack(Instant arrival) {
    List<Runnable> effects = new ArrayList<>();
    synchronized (lock) {
      showUps.back(clock.instant());
      if (heldBack != null) {
        heldBack.back(arrival);
        admitWhileFree(effects);
      }
    }
    run(effects);
  }

  /**
   * The share of the refused users told to come back who did, as the book uses it (1: all, or not
   * measured yet): of the book's reach, new users are told this share.
   */
  public double showUpShare() {
    synchronized (lock) {
      return showUps.share(clock.instant());
    }
  }

  /**
   * Times the book was given up, so far: a slot was free, nobody waited, and none of the users
   * told to come back in the second before last came back in the last one.
   */
  public long bookResets() {
    return bookResets.sum();
  }

  /**
   * Times, so far, that free slots were left to a user told to come back and due now, rather than
   * given to a later arrival waiting in line ({@code hold-grace}).
   */
  public long slotsHeld() {
    return slotsHeld.sum();
  }

  /**
   * Users served, so far, before the turn their ticket carries, because a slot was free and
   * nothing else would use it ({@code early-when-idle}).
   */
  public long servedEarly() {
    return servedEarly.sum();
  }

  /**
   * Times free slots went to the line rather than to users due back, because they had been left
   * to such users for {@code max-holding} in a row while claims waited.
   */
  public long holdsCut() {
    return holdsCut.sum();
  }

  /** Claims refused for {@code reason} so far. */
  public long refused(Reason reason) {
    return refused.get(reason).sum();
  }

  /** Claims refused so far, for every reason. */
  public long refused() {
    long all = 0;
    for (LongAdder count : refused.values()) {
      all += count.sum();
    }
    return all;
  }

  /** Claims admitted after waiting in line for a slot, so far. */
  public long waitedClaims() {
    return waited.sum();
  }

  /** The seconds that the claims of {@link #waitedClaims} waited in line, all together. */
  public double waitedSeconds() {
    return waitedNanos.sum() / 1e9;
  }

  /** The mean time a claim that ran held its slot; zero until one has. */
  public Duration expectedHold() {
    return expectedHold;
  }

  /**
   * Slots freed per second when all are busy: as measured while claims waited for one, or else the
   * limit over the mean hold; 0 until a claim has been measured.
   */
  public double drainRate() {
    synchronized (lock) {
      double perSlot = secondsPerSlot(clock.instant());
      return Double.isNaN(perSlot) ? 0 : 1 / perSlot;
    }
  }

  /**
   * Seconds between two slots freed when all are busy ({@link DrainMeter}); NaN until a claim has
   * been measured. Must hold {@code lock}.
   */
  private double secondsPerSlot(Instant now) {
    return drain.secondsPerSlot(now, limit(), queue.isEmpty());
  }

  private void released(Permit permit, Result result) {
    switch (result) {
      case SUCCESS -> permit.listener.onSuccess();
      case DROPPED -> permit.listener.onDropped();
      case IGNORED -> permit.listener.onIgnore();
    }
    List<Runnable> effects = new ArrayList<>();
    synchronized (lock) {
      // only claims that ran teach the drain rate (DrainMeter)
      Instant now = clock.instant();
      if (result == Result.SUCCESS) {
        double held = Duration.between(permit.admittedAt, now).toNanos() / 1e9;
        drain.ran(now, held, !queue.isEmpty());
        expectedHold = Duration.ofNanos(Math.round(drain.meanHoldSeconds() * 1e9));
      } else {
        drain.failed();
      }
      admitWhileFree(effects);
    }
    run(effects);
  }

  /** Gives free slots to the earliest arrivals; what to tell them is added to {@code effects}. */
  private void admitWhileFree(List<Runnable> effects) {
    while (!queue.isEmpty()) {
      if (holdsBack(queue.first().arrival)) {
        return;
      }
      Optional<Limiter.Listener> slot = limiter.acquire(null);
      if (slot.isEmpty()) {
        holdingSince = null;
        return;
      }
      Waiter first = queue.pollFirst();
      Instant now = clock.instant();
      if (first.waited) {
        waited.increment();
        waitedNanos.add(Duration.between(first.enteredAt, now).toNanos());
      }
      Permit permit = new Permit(slot.get(), now);
      effects.add(() -> first.admit(permit));
    }
    holdingSince = null;
  }

  /**
   * Whether a claim that first arrived at {@code arrival} must leave the free slots to a user who
   * arrived earlier and is due back now ({@link HeldBack}), or to one due back whom another
   * instance told to come back ({@link #useFleetFront}); if so, the line is looked at again when
   * that hold ends (or the fleet is read again). Each user due holds for at most {@code
   * hold-grace}, and all of them together for at most {@code max-holding}: once free slots have
   * been left to users due back for that long in a row while claims waited, the line is served
   * until every slot is taken or nobody waits. Users due back one after another, each seen late or
   * not at all (an instance that reads its requests seconds late sees them after their grace),
   * would otherwise leave the slots idle for as long as the line stayed full, and refuse its
   * claims at the end of their waits. Must hold {@code lock}.
   */
  private boolean holdsBack(Instant arrival) {
    if (limiter.getInflight() >= limiter.getLimit()) {
      holdingSince = null;
      return false;
    }
    Instant now = clock.instant();
    Instant at = heldHere(arrival, now);
    boolean here = at != null;
    if (!here) {
      at = heldByFleet(arrival, now);
      if (at == null) {
        return false;
      }
    }
    if (holdingSince == null) {
      holdingSince = now;
    }
    Instant cut = holdingSince.plus(maxHolding);
    if (!now.isBefore(cut)) {
      holdsCut.increment();
      return false;
    }
    (here ? slotsHeld : fleetSlotsHeld).increment();
    at = min(at, cut);
    if (wakeAt == null || at.isBefore(wakeAt)) {
      wakeAt = at;
      timer.schedule(Duration.between(now, at).plusMillis(1), this::wake);
    }
    return true;
  }

  /**
   * Until when a claim that first arrived at {@code arrival} leaves free slots to a user who clicked
   * earlier and is due back to this instance ({@link HeldBack}); null when none is. Must hold
   * {@code lock}.
   */
  private @Nullable Instant heldHere(Instant arrival, Instant now) {
    return heldBack == null ? null : heldBack.heldUntil(arrival, now);
  }

  /**
   * Until when a claim that first arrived at {@code arrival} leaves free slots to a user who clicked
   * earlier and is due back to another instance (the fleet front, {@link #useFleetFront}); null
   * when none is.
   */
  private @Nullable Instant heldByFleet(Instant arrival, Instant now) {
    FleetFront front = fleetFront.get();
    return front == null || !front.until().isAfter(now) || !arrival.isAfter(front.servingUpTo())
        ? null
        : front.until();
  }

  /** A hold may have ended: free slots go to the line again. */
  private void wake() {
    List<Runnable> effects = new ArrayList<>();
    synchronized (lock) {
      wakeAt = null;
      admitWhileFree(effects);
    }
    run(effects);
  }

  /** The end of a claim's wait, if it still waits. */
  private void expire(Waiter waiter) {
    Runnable refuse;
    synchronized (lock) {
      if (!queue.contains(waiter)) {
        return;
      }
      int ahead = queue.before(waiter);
      queue.remove(waiter);
      refuse = waiter.refuse(refusal(Reason.DEADLINE, ahead, waiter.arrival, clock.instant()));
    }
    run(List.of(refuse));
  }

  /** A claim whose caller went away stops waiting. */
  private void withdraw(Waiter waiter) {
    Runnable cancelTimer;
    synchronized (lock) {
      if (!queue.remove(waiter)) {
        return;
      }
      cancelTimer = waiter.cancelTimer;
    }
    if (cancelTimer != null) {
      cancelTimer.run();
    }
  }

  /**
   * Tells claims what became of them, outside {@code lock}. Telling a claim runs its continuation,
   * which may answer at once and release its permit, which admits the next claim: run nested, a
   * queue of such claims would nest as deep. So a call made while this thread already tells claims
   * only adds to what that outer call tells, one after another.
   */
  private static void run(List<Runnable> effects) {
    Deque<Runnable> pending = TELLING.get();
    if (pending != null) {
      pending.addAll(effects);
      return;
    }
    pending = new ArrayDeque<>(effects);
    TELLING.set(pending);
    try {
      for (Runnable effect = pending.poll(); effect != null; effect = pending.poll()) {
        try {
          effect.run();
        } catch (RuntimeException e) {
          LOG.error("a claim's continuation failed", e);
        }
      }
    } finally {
      TELLING.remove();
    }
  }

  /**
   * Whether a slot is free, nobody waits, and either none of the users told to come back in the
   * last second but one came back in the last second, or the book reaches beyond {@code
   * max-retry-after} while nobody told to come back is due any more (the latest time told, plus
   * the second that Retry-After's rounding adds, has passed): the turns the book holds are then for
   * users who went away (a burst of clients that gave up, a load test that ended) or who were
   * answered already (a sale that sold out: its users came back to the proof), and keeping them
   * would refuse new users, of any campaign, while the instance idles. Must hold {@code lock}.
   */
  private boolean idleWithoutReturns(Instant now) {
    if (!queue.isEmpty() || limiter.getInflight() >= limiter.getLimit()) {
      return false;
    }
    return showUps.nobodyCameBack(now)
        || (reach(now).compareTo(maxRetryAfter) > 0 && now.isAfter(lastDueAt.plusSeconds(1)));
  }

  /**
   * The next turn in the appointment book for a new user who arrived at {@code arrival}, without
   * giving it ({@link #take} does): nothing but the turns already past is forgotten. The book
   * counts one drain interval for every new user told a turn that has not come yet; of that wait,
   * the user is told the share that users come back ({@link ShowUps}): when nobody does, nobody
   * waits for them. The book reaches at most {@code max-turn} beyond now; a turn beyond {@code
   * max-retry-after} is told as that, with the turn itself in the refusal for the user's ticket. A
   * user whose first arrival is earlier than that of users booked before them (read later: behind
   * a front end that stamps arrivals, a request can wait longer than those that came after it) is
   * told the turn after the last booked user who arrived no later, so turns follow arrivals, not
   * the order of reading.
   *
   * <p>The user is never told a turn before {@code floor} beyond now (the other instances' reach)
   * nor before a floor told earlier. The floor is not added to the book: the book, and what this
   * instance posts to the fleet ({@link #promised}), hold its own turns only. Were the floor to
   * start the book, each instance would book after the furthest other book, post that, and be
   * booked after in turn: the books would leapfrog, every instance's reach growing with the whole
   * fleet's new users rather than its own, and users would be told turns the fleet's size times
   * too late. Must hold {@code lock}, with the drain rate measured or a floor above zero (a turn
   * then takes no time of its own).
   */
  private Turn nextTurn(Instant now, Duration floor, Instant arrival) {
    Instant floorAt = now.plus(floor.compareTo(maxTurn) > 0 ? maxTurn : floor);
    Instant floorNow = floorAt.isAfter(floorUntil) ? floorAt : floorUntil;
    Instant latest = now.plus(maxTurn);
    Instant after = bookedUntil.isAfter(now) ? bookedUntil : now;
    double perSlot = secondsPerSlot(now);
    long step = Math.round((Double.isNaN(perSlot) ? 0 : perSlot / bookHeadroom) * 1e9);
    Instant until = min(after.plusNanos(step), latest);
    // a user who arrived before users already booked takes the turn after the last of them who
    // arrived no later (or the next one, if that has passed); everyone booked after it is a step
    // later from now on
    Instant mine = until;
    while (!turnsByArrival.isEmpty() && turnsByArrival.firstEntry().getValue().isBefore(now)) {
      turnsByArrival.pollFirstEntry();
    }
    if (!turnsByArrival.isEmpty() && arrival.isBefore(turnsByArrival.lastKey())) {
      Map.Entry<Instant, Instant> before = turnsByArrival.floorEntry(arrival);
      Instant place = before == null || before.getValue().isBefore(now) ? now : before.getValue();
      mine = min(place.plusNanos(step), latest);
    }
    Instant turn = now.plus(told(Duration.between(now, mine), now));
    return new Turn(arrival, floorNow, until, mine, turn.isBefore(floorNow) ? floorNow : turn);
  }

  /**
   * Gives the turn {@link #nextTurn} found, told as {@code told}: the book and the floor reach to
   * it. A user told a turn within {@code max-retry-after}, or told an earlier turn than their own
   * (the pool's forecast end, however far), holds no turn beyond {@code max-retry-after}: only
   * their own turns told beyond it, which travel in tickets, take the book further. Otherwise a
   * book run far ahead for users told the forecast end, who came back to a sold-out and left,
   * would hold every new user, of any campaign, back for up to {@code max-turn}. Must hold the
   * lock.
   */
  private void take(Turn turn, Instant told, Instant now) {
    Instant longest = now.plus(maxRetryAfter);
    boolean beyond = told.isAfter(longest) && !told.isBefore(turn.told());
    floorUntil = turn.floorUntil();
    bookedUntil =
        beyond ? turn.bookedUntil() : max(bookedUntil, min(turn.bookedUntil(), longest));
    Instant mine = beyond ? turn.mine() : min(turn.mine(), longest);
    turnsByArrival.merge(turn.arrival(), mine, FairAdmission::max);
    if (turnsByArrival.size() > MAX_REMEMBERED_TURNS) {
      turnsByArrival.pollFirstEntry();
    }
  }

  /**
   * A new user's turn in the book: what the book, the floor and the turns by arrival become, and
   * the turn the user is told.
   */
  private record Turn(
      Instant arrival, Instant floorUntil, Instant bookedUntil, Instant mine, Instant told) {}

  private static Instant min(Instant a, Instant b) {
    return a.isBefore(b) ? a : b;
  }

  private static Instant max(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }

  /**
   * Counts a refusal for shutdown, told Retry-After as a claim with nobody before it, spread by
   * jitter: the instance goes away, and its users should not all come back to the others at once.
   * Must hold {@code lock}.
   */
  private Entry.Refused shutDown() {
    refused.get(Reason.SHUTTING_DOWN).increment();
    return new Entry.Refused(Reason.SHUTTING_DOWN, spread(0, clock.instant()));
  }

  /**
   * Counts a refusal of a claim with {@code ahead} claims before it in line. With appointments it
   * is told its expected turn, as its place in line says, and the book reaches at least to it;
   * without, that turn plus jitter. With {@code returns-per-slot}, its place also counts the
   * users told to come back who first arrived earlier and are not back yet, each for one over
   * that many, times the share of users told who come back ({@link ShowUps}): they are in line
   * too, only away, and come back a few for every slot freed.
   * Otherwise, once returning users outnumber what the instance drains, each of them, refused near
   * the front of a short line, is told {@code min-retry-after} again and again, and their retries,
   * every one an answer to give, take the cores the claims need. Must hold {@code lock}.
   */
  private Entry.Refused refusal(Reason reason, int ahead, Instant arrival, Instant now) {
    Duration retryAfter;
    if (!appointments) {
      retryAfter = spread(ahead, now);
    } else if (!drain.measured()) {
      retryAfter = UNMEASURED_WAIT; // no drain rate yet: nothing to tell but a second
    } else {
      // users away count as far as users told to come back do come back (ShowUps): after a burst
      // of clients that gave up, nobody waits behind them
      double away =
          awayWeight == 0 || heldBack == null
              ? 0
              : heldBack.awayBefore(arrival, now) * showUps.share(now);
      Duration expected =
          Duration.ofNanos(Math.round(expectedWaitSeconds(ahead + away * awayWeight, now) * 1e9));
      retryAfter = capped(expected.compareTo(minRetryAfter) < 0 ? minRetryAfter : expected);
      // their return is booked: a new user who comes meanwhile is told a turn after it, and does
      // not take, while they are away, the place they are told to come back to
      bookedUntil = max(bookedUntil, now.plus(retryAfter));
    }
    return told(reason, retryAfter, arrival, now);
  }

  /**
   * Counts a refusal for {@code reason} whose user is told to come back after {@code retryAfter},
   * and notes when they are due back. Must hold {@code lock}.
   */
  private Entry.Refused told(Reason reason, Duration retryAfter, Instant arrival, Instant now) {
    refused.get(reason).increment();
    lastDueAt = max(lastDueAt, now.plus(retryAfter));
    showUps.told(now, now.plus(retryAfter));
    if (heldBack != null) {
      heldBack.told(arrival, now.plus(retryAfter));
    }
    return new Entry.Refused(reason, retryAfter);
  }

  /**
   * Refuses a new user whose {@code turn} comes after their wait: gives it ({@link #take}) and
   * tells it as {@code turnToTell} says, never later than the turn nor before now. Must hold {@code
   * lock}.
   */
  private Entry.Refused tellTurn(Turn turn, TurnToTell turnToTell, Instant now) {
    Instant tell = max(now, min(turnToTell.tell(turn.told(), turn.arrival()), turn.told()));
    take(turn, tell, now);
    return toldTurn(tell, turn.arrival(), now);
  }

  /**
   * Counts the refusal ({@link Reason#DEADLINE}) of a user told to come back at {@code turn}: after
   * {@code turn}, or after {@code max-retry-after} with the turn in the refusal (for their ticket)
   * when it lies beyond that. Must hold {@code lock}.
   */
  private Entry.Refused toldTurn(Instant turn, Instant arrival, Instant now) {
    Duration wait = capped(Duration.between(now, turn));
    Entry.Refused refused = told(Reason.DEADLINE, wait, arrival, now);
    return turn.isAfter(now.plus(wait))
        ? new Entry.Refused(refused.reason(), wait, turn)
        : refused;
  }

  /**
   * Whether a user who first arrived at {@code arrival}, back before their told turn, may be served
   * now anyway ({@code early-when-idle}): a slot is free, nobody waits in line, and no user who
   * clicked earlier is due back, to this instance ({@link HeldBack}) or, by the fleet front, to
   * another. Their turn was told from a drain rate that this instance now beats; a slot left idle
   * serves nobody, and nobody who clicked earlier is owed it. Must hold {@code lock}.
   */
  private boolean idleFor(Instant arrival, Instant now) {
    if (!earlyWhenIdle || !queue.isEmpty() || limiter.getInflight() >= limiter.getLimit()) {
      return false;
    }
    return heldHere(arrival, now) == null && heldByFleet(arrival, now) == null;
  }

  /**
   * Whether a returning user whose ticket carries {@code turn} comes back before it, and it comes
   * after the end of their wait.
   */
  private static boolean beforeTheirTurn(@Nullable Instant turn, Instant waitUntil) {
    return turn != null && turn.isAfter(waitUntil);
  }

  /**
   * When a claim with {@code ahead} claims before it can expect its turn: their number plus one
   * over the drain rate; 0 while the drain rate is unknown. Must hold {@code lock}.
   */
  private double expectedWaitSeconds(double ahead, Instant now) {
    double perSlot = secondsPerSlot(now);
    return Double.isNaN(perSlot) ? 0 : (ahead + 1) * perSlot;
  }

  /**
   * The expected turn plus jitter: a uniform part of up to {@code retryJitter} of it, and of at
   * least a second (Retry-After counts whole seconds), capped at {@code maxRetryAfter}.
   */
  private Duration spread(int ahead, Instant now) {
    double expected = expectedWaitSeconds(ahead, now);
    double spread = retryJitter == 0 ? 0 : Math.max(1, retryJitter * expected);
    return capped(Duration.ofNanos(Math.round((expected + random.getAsDouble() * spread) * 1e9)));
  }

  /** {@code retryAfter}, or {@code maxRetryAfter} if that is sooner. */
  private Duration capped(Duration retryAfter) {
    return retryAfter.compareTo(maxRetryAfter) > 0 ? maxRetryAfter : retryAfter;
  }

  /** A claim in line. */
  private final class Waiter implements Line.Place {
    final Instant arrival;
    final long sequence;
    final Instant enteredAt;
    final CompletableFuture<Entry> future = new CompletableFuture<>();
    /** Guarded by {@code lock}; null until the wait's timer is set. */
    Runnable cancelTimer;
    /** Whether it found no free slot and waited in line; guarded by {@code lock}. */
    boolean waited;

    Waiter(Instant arrival, long sequence, Instant enteredAt) {
      this.arrival = arrival;
      this.sequence = sequence;
      this.enteredAt = enteredAt;
    }

    @Override
    public Instant arrival() {
      return arrival;
    }

    @Override
    public long sequence() {
      return sequence;
    }

    /** Hands the slot over; a caller who went away gives it back at once. */
    void admit(Permit permit) {
      cancelTimer();
      if (!future.complete(new Entry.Admitted(permit))) {
        permit.release(Result.IGNORED);
      }
    }

    Runnable refuse(Entry.Refused refusal) {
      return () -> {
        cancelTimer();
        future.complete(refusal);
      };
    }

    private void cancelTimer() {
      Runnable cancel;
      synchronized (lock) {
        cancel = cancelTimer;
      }
      if (cancel != null) {
        cancel.run();
      }
    }
  }
}
