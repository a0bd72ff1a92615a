package flashclaim.admission;

import java.time.Instant;

/**
 * A user's place in line for a campaign: when they first arrived, and until when that counts. It
 * travels with their retries as a signed header ({@link TicketCodec}), so a user told to retry is
 * served before users who arrived later, on whichever instance the retry lands (G7).
 */
public record Ticket(Instant firstArrival, Instant expiresAt) {

  /**
   * This ticket's arrival as seen at {@code now}: an arrival in the future (another instance's
   * clock runs ahead) counts as now, never ahead of users who are already here.
   */
  public Instant arrivalNoLaterThan(Instant now) {
    return firstArrival.isAfter(now) ? now : firstArrival;
  }
}
