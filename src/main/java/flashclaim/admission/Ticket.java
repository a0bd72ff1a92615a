package flashclaim.admission;

import io.micronaut.core.annotation.Nullable;
import java.time.Instant;

/**
 * A user's place in line for a campaign: when they first arrived, until when that counts, and the
 * turn they were told when it lay beyond the longest Retry-After ({@code null}: none). It travels
 * with their retries as a signed header ({@link TicketCodec}), so a user told to retry is served
 * before users who arrived later, on whichever instance the retry lands (G7), and a user who comes
 * back before a turn beyond Retry-After is told the rest of the wait rather than taking the place
 * of users whose turns come first.
 */
public record Ticket(Instant firstArrival, Instant expiresAt, @Nullable Instant turn) {

  /** A ticket without a turn. */
  public Ticket(Instant firstArrival, Instant expiresAt) {
    this(firstArrival, expiresAt, null);
  }

  /** This ticket with {@code turn} as its turn ({@code null}: none). */
  public Ticket withTurn(@Nullable Instant turn) {
    return new Ticket(firstArrival, expiresAt, turn);
  }

  /**
   * This ticket's arrival as seen at {@code now}: an arrival in the future (another instance's
   * clock runs ahead) counts as now, never ahead of users who are already here.
   */
  public Instant arrivalNoLaterThan(Instant now) {
    return firstArrival.isAfter(now) ? now : firstArrival;
  }
}
