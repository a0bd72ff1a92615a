package flashclaim.admission;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;
import java.util.List;

/**
 * Admission of claims ({@code flashclaim.admission.*}): how many run at once, how many may wait,
 * what a refused claim is told, and the tickets that keep a refused user's place.
 *
 * @param limit the concurrency limit of claims: {@code gradient2} (default) or {@code vegas}, which
 *     adapt to the latency the claims meet, or {@code fixed} at {@code initialLimit}
 * @param initialLimit claims one instance runs at once before the limit has adapted; the limit
 *     itself with {@code fixed}
 * @param minLimit {@code gradient2}'s limit never goes below this ({@code vegas} goes down to 1):
 *     the claims the store always gets to work on at once, so that the burst at a sale's start,
 *     when every claim's latency jumps, does not cut the limit below what the store serves and
 *     refuse claims that would have been served in time
 * @param maxLimit the adaptive limit never goes above this; keep it at most the store pool's
 *     threads ({@code micronaut.executors.store.number-of-threads}), or admitted claims queue for a
 *     thread instead of in the fair queue
 * @param maxQueued the most claims that wait for a slot on one instance, a hard bound; when it is
 *     reached the latest arrival is refused (503 {@code overloaded}). Every waiting claim holds a
 *     connection of the load balancer's front end, which bounds them per instance (Cloud Run's
 *     concurrency, at most 1,000): keep the claims running and waiting well below that bound, or
 *     new clicks queue in front of the instance, unseen and out of order
 * @param workReserve the least part of a claim's deadline ({@code flashclaim.claim.deadline},
 *     counted from its arrival) kept for its store work: a claim waits for a slot at most until its
 *     deadline less this reserve, or less the mean time a claim holds its slot if that is longer
 * @param maxWait the longest a claim waits for a slot, counted from its arrival (and never past
 *     the deadline less {@code workReserve}): a user whose turn comes later is told it at once
 *     ({@code Flashclaim-Retry-After-Ms}); shorter waits hold a front end's connections more
 *     briefly, at the price of more refusals
 * @param maxRetryAfter the longest Retry-After a refused claim is told
 * @param maxTurn the furthest turn a refused new user is given (between {@code max-retry-after}
 *     and {@code ticket-ttl}): a turn beyond {@code max-retry-after} is told as that, and travels
 *     in the user's ticket; a user who comes back before it is told the rest of the wait, so that
 *     users whose turns lie beyond it come back one after another, in their turns' order, rather
 *     than all at {@code max-retry-after} after their clicks
 * @param minRetryAfter the shortest wait told to a claim refused from the line (it waited its
 *     wait, or the line was full), whose turn is only estimated from its place: without it, a
 *     place near the front tells a wait of milliseconds, and a client that is refused again and
 *     again (the line full of earlier arrivals) comes back many times a second. A new user's
 *     appointment is told as booked, to the millisecond
 * @param retryJitter how widely Retry-After is spread: a refused claim waits its expected turn plus
 *     a random part of up to this fraction of it, and of at least one second (Retry-After counts
 *     whole seconds), so that refused clients do not come back all at once
 * @param serviceTimeSmoothing weight (0 to 1) of the newest claim in the running mean of how long a
 *     claim holds its slot, from which the drain rate (limit / mean hold) is derived while it has
 *     not been measured
 * @param drainWindow the drain rate is measured as slots freed per second while claims wait for
 *     one, over about this much of the latest such time (an exponentially weighted window); it
 *     stands for ten windows after the last such time, then the limit over the mean hold counts
 *     again
 * @param bookHeadroom the appointment book gives new users turns at this many times the drain
 *     rate (at least 1): turns told a little early bring users back to a line that is seldom
 *     empty, which keeps the drain measured and takes a faster drain as it comes, and a book that
 *     ran ahead of the drain (an estimate that lagged a sale's rising first seconds) runs out
 *     again instead of staying ahead; a user told early waits in line for their turn
 * @param ticketSecret the HMAC key of the {@code Flashclaim-Ticket}, at least 32 bytes, the same on
 *     every instance (env {@code FLASHCLAIM_ADMISSION_TICKET_SECRET})
 * @param ticketTtl how long after a user's first arrival their ticket keeps their place
 * @param holdGrace a user told to come back holds their place for this long after they are due:
 *     meanwhile a claim of a later first arrival (by more than {@code hold-slack}) is not given a
 *     slot that frees up, but waits in line, so that the capacity of the moments the refused user
 *     is on their way back is theirs; once back here they are in line, and if they come back to
 *     another instance or not at all, their hold ends with it. {@code 0s} turns holding off
 * @param holdSlack how much later than the earliest user due back a claim may have first arrived
 *     and still be given a free slot
 * @param appointments whether a new user (one without a ticket) is given the next turn in the
 *     instance's appointment book, one drain interval after the previous new user's, and, when that
 *     turn comes after the end of their wait, refused at once and told it as Retry-After (true,
 *     the default); false: Retry-After is the expected turn in the line plus jitter
 * @param returnsPerSlot how many users refused from the line (their wait ran out, or the line was
 *     full) are told to come back for every slot the instance frees, at most: each is told a turn
 *     one drain interval later for every claim waiting before it and for every {@code
 *     returns-per-slot} users told to come back who first arrived earlier and are neither back
 *     nor past their {@code hold-grace} (with appointments and holding on), times the share of
 *     users told to come back who do (none after a burst of clients that gave up). However many
 *     users the instance cannot serve at once, they then come back, earliest arrivals first, at
 *     about this many times the drain rate, so that their retries, each an answer to give, do not
 *     take the cores the claims need. {@code 1}: every user told the turn after all earlier ones;
 *     {@code 0}: each told from the claims waiting alone, at least {@code min-retry-after}
 * @param idleDrainGrowth a drain rate measured while claims waited, once no claim has waited for
 *     more than one {@code drain-window}, grows by this factor each further window (up to the limit
 *     over the mean hold) while it stands: the instance served all that came, paced by the turns
 *     told from that rate, and an idle instance tells turns sooner until claims wait again and
 *     the drain is measured. {@code 1}: off (the measure stands as it was)
 * @param earlyWhenIdle a user who comes back before the turn their ticket carries is served
 *     anyway when a slot is free, nobody waits in line and no user who clicked earlier is due back
 *     (here, or by the fleet front at another instance): the turn was told from a drain rate the
 *     instance now beats, and a slot left idle serves nobody (a user told a turn far ahead by a book
 *     that ran ahead in a sale's slow first seconds, or by a book of a sale that has ended, would
 *     otherwise be refused by an idle instance for up to {@code max-turn}). {@code false}: such a
 *     user is always told the rest of their wait
 * @param maxHolding the longest that free slots are left to users due back ({@code hold-grace},
 *     here or by the fleet front) in a row while claims wait in line; then the line is served
 *     until every slot is taken or nobody waits. Each user holds for at most {@code hold-grace},
 *     but users due one after another, each seen late or not at all (an instance that reads its
 *     requests seconds late sees returns after their grace), would otherwise leave the slots idle
 *     for as long as users kept becoming due, and refuse the line's claims at the end of their
 *     waits. At least {@code hold-grace}, so that no single user's hold is cut
 */
@ConfigurationProperties("flashclaim.admission")
public record AdmissionConfig(
    @Bindable(defaultValue = "gradient2") String limit,
    @Bindable(defaultValue = "32") int initialLimit,
    @Bindable(defaultValue = "32") int minLimit,
    @Bindable(defaultValue = "64") int maxLimit,
    @Bindable(defaultValue = "900") int maxQueued,
    @Bindable(defaultValue = "100ms") Duration workReserve,
    @Bindable(defaultValue = "2s") Duration maxWait,
    @Bindable(defaultValue = "30s") Duration maxRetryAfter,
    @Bindable(defaultValue = "5m") Duration maxTurn,
    @Bindable(defaultValue = "1s") Duration minRetryAfter,
    @Bindable(defaultValue = "0.5") double retryJitter,
    @Bindable(defaultValue = "0.05") double serviceTimeSmoothing,
    @Bindable(defaultValue = "1s") Duration drainWindow,
    @Bindable(defaultValue = "1.2") double bookHeadroom,
    @Bindable(defaultValue = DEVELOPMENT_SECRET) String ticketSecret,
    @Bindable(defaultValue = "10m") Duration ticketTtl,
    @Bindable(defaultValue = "150ms") Duration holdGrace,
    @Bindable(defaultValue = "0ms") Duration holdSlack,
    @Bindable(defaultValue = "true") boolean appointments,
    @Bindable(defaultValue = "4") double returnsPerSlot,
    @Bindable(defaultValue = "2") double idleDrainGrowth,
    @Bindable(defaultValue = "true") boolean earlyWhenIdle,
    @Bindable(defaultValue = "500ms") Duration maxHolding) {

  /** The names of the limit algorithms. */
  public static final List<String> LIMITS = List.of("gradient2", "vegas", "fixed");

  /** The documented development secret. Never use it where real users are. */
  public static final String DEVELOPMENT_SECRET =
      "flashclaim-ticket-development-secret-change-me-0123456789";

  /** Refuses a configuration that cannot work: the service does not start with it. */
  public AdmissionConfig {
    require(
        LIMITS.contains(limit),
        "flashclaim.admission.limit must be one of " + LIMITS + ", not " + limit);
    require(
        initialLimit >= 1
            && minLimit >= 1
            && maxLimit >= 1
            && ("fixed".equals(limit) || (minLimit <= initialLimit && initialLimit <= maxLimit)),
        "flashclaim.admission: limits must be at least 1, and an adaptive limit's initial-limit"
            + " between its min-limit and max-limit");
    require(maxQueued >= 0, "flashclaim.admission.max-queued must not be negative");
    require(
        !workReserve.isNegative()
            && !maxRetryAfter.isNegative()
            && !minRetryAfter.isNegative()
            && minRetryAfter.compareTo(maxRetryAfter) <= 0
            && !ticketTtl.isNegative()
            && !ticketTtl.isZero(),
        "flashclaim.admission: work-reserve and max-retry-after must not be negative,"
            + " min-retry-after not negative nor above max-retry-after, ticket-ttl must be"
            + " positive");
    require(
        maxWait.toMillis() >= 1, "flashclaim.admission.max-wait must be at least 1 ms");
    require(
        maxTurn.compareTo(maxRetryAfter) >= 0 && maxTurn.compareTo(ticketTtl) <= 0,
        "flashclaim.admission.max-turn must be between max-retry-after and ticket-ttl");
    require(retryJitter >= 0, "flashclaim.admission.retry-jitter must not be negative");
    require(
        serviceTimeSmoothing > 0 && serviceTimeSmoothing <= 1,
        "flashclaim.admission.service-time-smoothing must be above 0 and at most 1");
    require(
        drainWindow.toMillis() >= 1, "flashclaim.admission.drain-window must be at least 1 ms");
    require(
        !holdGrace.isNegative() && !holdSlack.isNegative(),
        "flashclaim.admission.hold-grace and hold-slack must not be negative");
    require(
        maxHolding.toMillis() >= 1 && maxHolding.compareTo(holdGrace) >= 0,
        "flashclaim.admission.max-holding must be at least 1 ms and at least hold-grace");
    require(
        returnsPerSlot == 0 || (returnsPerSlot >= 1 && returnsPerSlot <= 1000),
        "flashclaim.admission.returns-per-slot must be 0 (off) or between 1 and 1000");
    require(
        bookHeadroom >= 1 && bookHeadroom <= 10,
        "flashclaim.admission.book-headroom must be between 1 and 10");
    require(
        idleDrainGrowth >= 1 && idleDrainGrowth <= 100,
        "flashclaim.admission.idle-drain-growth must be between 1 (off) and 100");
  }

  private static void require(boolean condition, String message) {
    if (!condition) {
      throw new IllegalStateException(message);
    }
  }
}
