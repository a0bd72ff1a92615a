package flashclaim.http.shed;

import flashclaim.admission.ClaimPacing;
import flashclaim.admission.FairAdmission;
import flashclaim.admission.FairAdmission.Reason;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The admission of API requests as meters.
 *
 * <ul>
 *   <li>{@value #IN_FLIGHT}: API requests being worked on, claims that wait for a slot included;
 *   <li>{@value #SHED}: API requests refused with 503, tagged {@code reason} {@code overloaded} or
 *       {@code shutting_down}, claims included;
 *   <li>{@value #LIMIT}, {@value #CLAIMS_IN_FLIGHT}, {@value #QUEUED}: the claims' adaptive limit,
 *       the claims that hold a slot, the claims that wait for one;
 *   <li>{@value #BOOKED}, {@value #FLEET_FLOOR}: how far beyond now this instance's appointment
 *       book reaches, and how far the other instances' books reach (no new user here is told an
 *       earlier turn);
 *   <li>{@value #WAITED}, {@value #WAITED_SECONDS}: claims admitted after waiting in line, and how
 *       long they waited together (their quotient is the mean wait: queueing inside the service);
 *   <li>{@value #DRAIN_RATE}: slots freed per second when all are busy, from which a refused
 *       claim's Retry-After is derived;
 *   <li>{@value #CONNECTIONS}, {@value #CONNECTION_BOUND}: HTTP connections open, and the times
 *       the instance stopped accepting at {@code flashclaim.http.max-connections};
 *   <li>{@value #HEAD_TIMEOUTS}: connections closed because a request's head did not arrive
 *       within {@code flashclaim.http.head-timeout};
 *   <li>{@value #SHOW_UP_SHARE}, {@value #BOOK_RESETS}: the share of refused users who came back
 *       when told, of which the book tells new users its reach, and the times the book was given
 *       up because nobody came back;
 *   <li>{@value #SLOTS_HELD}: the times free slots were left to a user due back rather than given
 *       to a later arrival waiting in line;
 *   <li>{@value #FLEET_SLOTS_HELD}: the times free slots were left idle because another instance
 *       of the fleet had told a user who clicked earlier than the first waiting here to come back,
 *       and they were due;
 *   <li>{@value #SERVED_EARLY}: users served before the turn their ticket carries, because a slot
 *       was free and nothing else would use it ({@code flashclaim.admission.early-when-idle});
 *   <li>{@value #CLAIMS_SHED}: claims refused, tagged {@code reason} {@code queue_full}, {@code
 *       deadline} or {@code shutting_down};
 *   <li>{@value #FRONT_END_READ}, {@value #FRONT_END_WAITED}: API requests that came with a
 *       trusted front end's time of arrival ({@code flashclaim.http.front-end-arrival-header}), and
 *       how long they took from the front end to the first filter together (their quotient is the
 *       mean wait that the service's own timings do not show);
 *   <li>{@value #TOO_EARLY}, {@value #PACED_CALLERS}: claims answered 429 {@code retry-too-soon}
 *       because their caller came back sooner than told, and the callers remembered for it.
 * </ul>
 */
@Singleton
@Requires(beans = MeterRegistry.class)
final class HttpMeters implements MeterBinder {
  static final String IN_FLIGHT = "flashclaim.http.in.flight";
  static final String SHED = "flashclaim.http.shed";
  static final String LIMIT = "flashclaim.admission.limit";
  static final String CLAIMS_IN_FLIGHT = "flashclaim.admission.in.flight";
  static final String QUEUED = "flashclaim.admission.queued";
  static final String BOOKED = "flashclaim.admission.booked";
  static final String FLEET_FLOOR = "flashclaim.admission.fleet.floor";
  static final String WAITED = "flashclaim.admission.waited";
  static final String WAITED_SECONDS = "flashclaim.admission.waited.seconds";
  static final String DRAIN_RATE = "flashclaim.admission.drain.rate";
  static final String CONNECTIONS = "flashclaim.http.connections";
  static final String CONNECTION_BOUND = "flashclaim.http.connection.bound.reached";
  static final String CONNECTIONS_CLOSED_WHEN_FULL = "flashclaim.http.connections.closed.when.full";
  static final String HEAD_TIMEOUTS = "flashclaim.http.head.timeouts";
  static final String SHOW_UP_SHARE = "flashclaim.admission.show.up.share";
  static final String BOOK_RESETS = "flashclaim.admission.book.resets";
  static final String SLOTS_HELD = "flashclaim.admission.slots.held";
  static final String FLEET_SLOTS_HELD = "flashclaim.admission.fleet.slots.held";
  static final String HOLDS_CUT = "flashclaim.admission.holds.cut";
  static final String SERVED_EARLY = "flashclaim.admission.served.early";
  static final String CLAIMS_SHED = "flashclaim.admission.shed";
  static final String FRONT_END_READ = "flashclaim.http.front.end.arrivals";
  static final String FRONT_END_WAITED = "flashclaim.http.front.end.waited.seconds";
  static final String TOO_EARLY = "flashclaim.admission.too.early";
  static final String PACED_CALLERS = "flashclaim.admission.paced.callers";
  static final String TOO_EARLY_HELD = "flashclaim.admission.too.early.held";

  private final LoadShedFilter http;
  private final FairAdmission claims;
  private final ClaimPacing pacing;
  private final ConnectionBound connections;
  private final HeadTimeout heads;

  HttpMeters(
      LoadShedFilter http,
      FairAdmission claims,
      ClaimPacing pacing,
      ConnectionBound connections,
      HeadTimeout heads) {
    this.http = http;
    this.claims = claims;
    this.pacing = pacing;
    this.connections = connections;
    this.heads = heads;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    gauge(
        registry,
        IN_FLIGHT,
        http,
        LoadShedFilter::inFlight,
        "API requests this instance is working on, waiting claims included");
    gauge(registry, CONNECTIONS, connections, ConnectionBound::open, "HTTP connections open");
    counter(
        registry,
        CONNECTION_BOUND,
        connections,
        ConnectionBound::pauses,
        "times the instance stopped accepting connections at flashclaim.http.max-connections");
    counter(
        registry,
        CONNECTIONS_CLOSED_WHEN_FULL,
        connections,
        ConnectionBound::closedWhenFull,
        "connections closed with their answer while flashclaim.http.max-connections were open");
    counter(
        registry,
        HEAD_TIMEOUTS,
        heads,
        HeadTimeout::closed,
        "connections closed because a request's head did not arrive within"
            + " flashclaim.http.head-timeout");
    shed(
        registry,
        "overloaded",
        a -> http.shedCount() + a.refused(Reason.QUEUE_FULL) + a.refused(Reason.DEADLINE));
    shed(
        registry,
        "shutting_down",
        a -> http.refusedWhileDraining() + a.refused(Reason.SHUTTING_DOWN));

    gauge(
        registry,
        LIMIT,
        claims,
        FairAdmission::limit,
        "claims this instance runs at once at most, as the limit has adapted");
    gauge(registry, CLAIMS_IN_FLIGHT, claims, FairAdmission::inFlight, "claims that hold a slot");
    gauge(
        registry,
        QUEUED,
        claims,
        FairAdmission::queued,
        "claims that wait for a slot, in order of first arrival");
    Gauge.builder(BOOKED, claims, a -> a.booked().toNanos() / 1e9)
        .description("how far beyond now the turns given to new users reach")
        .baseUnit("seconds")
        .register(registry);
    Gauge.builder(FLEET_FLOOR, claims, a -> a.fleetFloor().toNanos() / 1e9)
        .description("how far beyond now the turns other instances told their new users reach")
        .baseUnit("seconds")
        .register(registry);
    counter(
        registry,
        WAITED,
        claims,
        FairAdmission::waitedClaims,
        "claims admitted after waiting in line for a slot");
    counter(
        registry,
        WAITED_SECONDS,
        claims,
        FairAdmission::waitedSeconds,
        "seconds the claims admitted after waiting waited in line, all together");
    gauge(
        registry,
        DRAIN_RATE,
        claims,
        FairAdmission::drainRate,
        "slots freed per second while claims wait for one, as measured (the limit over the mean"
            + " hold until then)");
    gauge(
        registry,
        SHOW_UP_SHARE,
        claims,
        FairAdmission::showUpShare,
        "share of refused users told to come back who did, as the book uses it");
    counter(
        registry,
        BOOK_RESETS,
        claims,
        FairAdmission::bookResets,
        "times the book was given up: a slot free, nobody waiting, nobody back");
    counter(
        registry,
        SLOTS_HELD,
        claims,
        FairAdmission::slotsHeld,
        "times free slots were left to a user due back rather than given to a later arrival");
    counter(
        registry,
        FLEET_SLOTS_HELD,
        claims,
        FairAdmission::fleetSlotsHeld,
        "times free slots were left to a user due back whom another instance told to come back");
    counter(
        registry,
        HOLDS_CUT,
        claims,
        FairAdmission::holdsCut,
        "times free slots went to the line after being left to users due back for max-holding in"
            + " a row");
    counter(
        registry,
        SERVED_EARLY,
        claims,
        FairAdmission::servedEarly,
        "users served before their told turn because a slot was free and nothing else would use it");
    for (Reason reason : Reason.values()) {
      FunctionCounter.builder(CLAIMS_SHED, claims, a -> a.refused(reason))
          .description("claims refused with 503")
          .tag("reason", reason.name().toLowerCase(Locale.ROOT))
          .register(registry);
    }
    counter(
        registry,
        FRONT_END_READ,
        http,
        h -> h.frontEnd().readCount(),
        "API requests that came with a trusted front end's time of arrival");
    counter(
        registry,
        FRONT_END_WAITED,
        http,
        h -> h.frontEnd().waitedSeconds(),
        "seconds those requests took from the front end to the first filter, all together");
    counter(
        registry,
        TOO_EARLY,
        pacing,
        ClaimPacing::tooEarlyCount,
        "claims answered 429 retry-too-soon: their caller came back sooner than told");
    gauge(
        registry,
        PACED_CALLERS,
        pacing,
        ClaimPacing::callers,
        "callers told to come back later whom this instance remembers");
    gauge(
        registry,
        TOO_EARLY_HELD,
        pacing,
        ClaimPacing::held,
        "answers 429 retry-too-soon held now for the wait their callers have left");
  }

  private static <T> void gauge(
      MeterRegistry registry, String name, T source, ToDoubleFunction<T> value, String meaning) {
    Gauge.builder(name, source, value).description(meaning).register(registry);
  }

  private static <T> void counter(
      MeterRegistry registry, String name, T source, ToDoubleFunction<T> count, String meaning) {
    FunctionCounter.builder(name, source, count).description(meaning).register(registry);
  }

  private void shed(MeterRegistry registry, String reason, ToDoubleFunction<FairAdmission> count) {
    FunctionCounter.builder(SHED, claims, count)
        .description("API requests refused with 503")
        .tag("reason", reason)
        .register(registry);
  }
}
