package flashclaim.claim;

import flashclaim.campaign.Campaign;
import java.time.Duration;
import java.time.Instant;

/**
 * What a claim came to. Every expected result is a value; infrastructure faults are {@link
 * flashclaim.StoreException}. The HTTP layer maps each case to one status.
 */
public sealed interface ClaimOutcome {

  /** Which case this is, for those that count outcomes (metrics, the dashboard). */
  Kind kind();

  /** The cases, one per record below. */
  enum Kind {
    CLAIMED,
    ALREADY_HELD,
    SOLD_OUT,
    NOT_OPEN,
    PAUSED,
    UNKNOWN_CAMPAIGN,
    BUSY
  }

  /** A coupon was assigned to the user by this request. */
  record Claimed(Claim claim) implements ClaimOutcome {
    @Override
    public Kind kind() {
      return Kind.CLAIMED;
    }
  }

  /**
   * The user already holds as many coupons as the campaign allows; {@code claim} is the newest of
   * them. Repeating a claim lands here (G4): it never yields a second coupon.
   */
  record AlreadyHeld(Claim claim) implements ClaimOutcome {
    @Override
    public Kind kind() {
      return Kind.ALREADY_HELD;
    }
  }

  /**
   * No unassigned coupon existed at a moment during the claim (G3): a single consistent read of
   * the pool found none, or a proof of this instance still held ({@link SoldOutProofs}).
   */
  record SoldOut() implements ClaimOutcome {
    @Override
    public Kind kind() {
      return Kind.SOLD_OUT;
    }
  }

  /**
   * The campaign is not open at this moment: {@code window} says whether it has not started or has
   * ended; {@code startsAt} and {@code endsAt} are its window (null where open-ended), for a
   * countdown. A user who holds the limit of a campaign that has ended gets {@link AlreadyHeld}
   * instead.
   */
  record NotOpen(Campaign.Window window, Instant startsAt, Instant endsAt) implements ClaimOutcome {
    @Override
    public Kind kind() {
      return Kind.NOT_OPEN;
    }
  }

  /**
   * The campaign is paused by an admin: no coupon is handed out until it is resumed. A user who
   * holds the limit gets {@link AlreadyHeld} instead.
   */
  record Paused() implements ClaimOutcome {
    @Override
    public Kind kind() {
      return Kind.PAUSED;
    }
  }

  /** No campaign has this id. */
  record UnknownCampaign() implements ClaimOutcome {
    @Override
    public Kind kind() {
      return Kind.UNKNOWN_CAMPAIGN;
    }
  }

  /**
   * Coupons may remain but none could be taken before the deadline because other claims won the
   * races. The client should retry after {@code retryAfter}.
   */
  record Busy(Duration retryAfter) implements ClaimOutcome {
    @Override
    public Kind kind() {
      return Kind.BUSY;
    }
  }
}
