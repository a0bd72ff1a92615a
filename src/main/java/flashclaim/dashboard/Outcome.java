package flashclaim.dashboard;

import flashclaim.claim.ClaimOutcome;

/** What the dashboard counts of a claim's end. */
public enum Outcome {
  CLAIMED,
  ALREADY_HELD,
  SOLD_OUT,
  NOT_OPEN,
  BUSY,
  /** A store fault, answered 503 {@code store-unavailable}. */
  FAILED;

  /** The kind of {@code outcome}; null for an unknown campaign, which is not counted. */
  static Outcome of(ClaimOutcome outcome) {
    if (outcome instanceof ClaimOutcome.Claimed) {
      return CLAIMED;
    } else if (outcome instanceof ClaimOutcome.AlreadyHeld) {
      return ALREADY_HELD;
    } else if (outcome instanceof ClaimOutcome.SoldOut) {
      return SOLD_OUT;
    } else if (outcome instanceof ClaimOutcome.NotOpen) {
      return NOT_OPEN;
    } else if (outcome instanceof ClaimOutcome.Busy) {
      return BUSY;
    }
    return null; // UnknownCampaign
  }
}
