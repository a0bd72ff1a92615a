package flashclaim.http.claim;

import flashclaim.admission.AdmissionConfig;
import flashclaim.admission.FairAdmission;
import flashclaim.admission.Ticket;
import flashclaim.admission.TicketCodec;
import flashclaim.claim.ClaimConfig;
import flashclaim.claim.SellOutForecast;
import flashclaim.http.problem.Refusals;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpResponse;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;

/**
 * Fair admission of claims (G6, G7), the last step of the claim edge: the claim passes {@link
 * FairAdmission} before its store work. It runs at once while the adaptive limit has room;
 * otherwise it waits, without a thread, in order of its user's first arrival, until a slot is free
 * or its wait ends ({@code flashclaim.admission.max-wait} after it arrived, and at most {@code
 * flashclaim.claim.deadline} less the time its store work is expected to take, at least {@code
 * flashclaim.admission.work-reserve}); or it is refused at
 * once with 503 {@code overloaded} when its turn could not come in time or too many wait before
 * it.
 *
 * <p>The user's first arrival (and a turn told beyond the longest Retry-After) travels with their
 * retries in the {@value #TICKET} header: every 503
 * of a claim carries the caller's ticket (refused here, {@code busy}, {@code store-unavailable},
 * {@code shutting-down}), and a claim that sends a ticket back waits by the arrival in it, on
 * whichever instance it lands. A ticket that is not valid for this caller and campaign is ignored:
 * the claim counts as arriving now. The slot is given back when the answer leaves, whatever it is,
 * or when the client goes away.
 */
@Singleton
final class ClaimAdmission {
  /** The header that carries a user's ticket, in 503s and in the retries that send it back. */
  static final String TICKET = "Flashclaim-Ticket";

  private final FairAdmission admission;
  private final TicketCodec tickets;
  private final Duration deadline;
  private final Duration workReserve;
  private final Duration maxWait;
  private final SellOutForecast sellOut;

  ClaimAdmission(
      FairAdmission admission,
      TicketCodec tickets,
      AdmissionConfig config,
      ClaimConfig claims,
      SellOutForecast sellOut) {
    this.admission = admission;
    this.tickets = tickets;
    this.deadline = claims.deadline();
    this.workReserve = config.workReserve();
    this.maxWait = config.maxWait();
    this.sellOut = sellOut;
  }

  /**
   * The longest a claim waits for a slot after it arrived: {@code max-wait}, and no later than its
   * deadline less the time its store work is expected to take (the mean time a claim holds its
   * slot), or less {@code work-reserve} if that is longer. A claim admitted later would hold a slot
   * only to be answered {@code busy} at its deadline, its store work cut short: with three
   * instances on one busy store, claims held their slots 0.3 s and more, and the first users of a
   * sale were answered {@code busy} three times in a row.
   */
  private Duration longestWait() {
    return longestWait(deadline, workReserve, maxWait, admission.expectedHold());
  }

  /** See {@link #longestWait()}: from the settings and the mean hold. */
  static Duration longestWait(
      Duration deadline, Duration workReserve, Duration maxWait, Duration meanHold) {
    Duration inDeadline =
        deadline.minus(meanHold.compareTo(workReserve) > 0 ? meanHold : workReserve);
    return inDeadline.compareTo(maxWait) < 0 ? inDeadline : maxWait;
  }

  /** The claim's answer: {@code rest} of the request run in a slot, or a refusal with its ticket. */
  Mono<HttpResponse<?>> admit(ClaimRequest claim, Supplier<Publisher<HttpResponse<?>>> rest) {
    Optional<Ticket> sent = ticketSent(claim);
    Ticket ticket = sent.orElseGet(() -> tickets.first(claim.seen()));
    Instant waitUntil = claim.arrived().plus(longestWait());
    Instant arrival = ticket.arrivalNoLaterThan(claim.seen());
    // Cancelled (the client went away) while it waits, the claim leaves the line; a slot that
    // arrives just as it is cancelled is discarded, and given back.
    return Mono.fromCompletionStage(
            sent.isPresent()
                ? admission.enterAgain(arrival, turnToTellAgain(claim, ticket), waitUntil)
                : admission.enter(
                    arrival,
                    waitUntil,
                    (turn, first) -> sellOut.tell(claim.campaignId(), turn, first)))
        .flatMap(
            entry ->
                entry instanceof FairAdmission.Entry.Admitted admitted
                    ? inSlot(rest, admitted.permit(), claim, ticket)
                    : Mono.just(refusal((FairAdmission.Entry.Refused) entry, claim, ticket)))
        .doOnDiscard(
            FairAdmission.Entry.Admitted.class,
            admitted -> admitted.permit().release(FairAdmission.Result.IGNORED));
  }

  /**
   * The 503 {@code overloaded}, with the caller's ticket, that {@link #admit} would answer this
   * claim at once, given as {@link FairAdmission#refuseAtOnce} does (booked and counted); empty
   * when {@link #admit} would admit it, let it wait, or refuse it for another reason. For the
   * claim door, which answers before the framework and holds no claim.
   */
  Optional<HttpResponse<?>> refuseAtOnce(ClaimRequest claim) {
    Optional<Ticket> sent = ticketSent(claim);
    Ticket ticket = sent.orElseGet(() -> tickets.first(claim.seen()));
    return admission
        .refuseAtOnce(
            ticket.arrivalNoLaterThan(claim.seen()),
            turnToTellAgain(claim, ticket),
            claim.arrived().plus(longestWait()),
            sent.isPresent(),
            (turn, first) -> sellOut.tell(claim.campaignId(), turn, first))
        .map(refused -> refusal(refused, claim, ticket));
  }

  /**
   * The turn in a returning user's ticket, no later than the latest turn worth telling now (the
   * campaign's expected sell-out plus the margin, {@link SellOutForecast#latestTurn}), if a
   * forecast stands: a user booked far ahead before any forecast stood (the first seconds of a
   * sale, when the drain starts slow and the book runs far) would otherwise come back after users
   * who clicked later and were told the forecast, and find the pool gone. Null when the ticket
   * holds no turn.
   */
  private Instant turnToTellAgain(ClaimRequest claim, Ticket ticket) {
    Instant turn = ticket.turn();
    if (turn == null) {
      return null;
    }
    return sellOut.latestTurn(claim.campaignId()).filter(turn::isAfter).orElse(turn);
  }

  /**
   * A claim answered before admission (sold out on the instance's proof, a closed campaign): one
   * that brings back a valid ticket is a refused user who came back as told, and counts as such
   * for the share of users who come back, and holds no slot any longer ({@link
   * FairAdmission#cameBack}).
   */
  void answeredBefore(ClaimRequest claim) {
    ticketSent(claim)
        .ifPresent(ticket -> admission.cameBack(ticket.arrivalNoLaterThan(claim.seen())));
  }

  /** Runs the rest of the request in the slot, and gives the slot back however it ends. */
  private Mono<HttpResponse<?>> inSlot(
      Supplier<Publisher<HttpResponse<?>>> rest,
      FairAdmission.Permit permit,
      ClaimRequest claim,
      Ticket ticket) {
    AtomicReference<FairAdmission.Result> result =
        new AtomicReference<>(FairAdmission.Result.IGNORED);
    return Mono.from(rest.get())
        .<HttpResponse<?>>map(
            response -> {
              result.set(
                  response.code() >= 500
                      ? FairAdmission.Result.DROPPED
                      : FairAdmission.Result.SUCCESS);
              return withTicket(response, claim, ticket);
            })
        .doOnError(e -> result.set(FairAdmission.Result.DROPPED))
        .doFinally(signal -> permit.release(result.get()));
  }

  private HttpResponse<?> refusal(
      FairAdmission.Entry.Refused refused, ClaimRequest claim, Ticket ticket) {
    MutableHttpResponse<?> response =
        refused.reason() == FairAdmission.Reason.SHUTTING_DOWN
            ? Refusals.shuttingDown(claim.path(), refused.retryAfter())
            : Refusals.overloaded(claim.path(), refused.retryAfter());
    // the turn told beyond Retry-After, if any, travels in the ticket; any other refusal's ticket
    // holds no turn (one told before has come, or it would have been told again)
    return withTicket(response, claim, ticket.withTurn(refused.turn()));
  }

  /** A 503 with the caller's ticket, so that their retry keeps their place. */
  private HttpResponse<?> withTicket(HttpResponse<?> response, ClaimRequest claim, Ticket ticket) {
    if (response.code() != 503 || response.getHeaders().contains(TICKET)) {
      return response;
    }
    return response
        .toMutableResponse()
        .header(TICKET, tickets.encode(claim.campaign(), claim.user(), ticket));
  }

  /** The ticket the caller sent, if it is valid for them and the campaign. */
  private Optional<Ticket> ticketSent(ClaimRequest claim) {
    return claim.tickets().size() == 1
        ? tickets.decode(claim.tickets().get(0), claim.campaign(), claim.user())
        : Optional.empty();
  }
}
