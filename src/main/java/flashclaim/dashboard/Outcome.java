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
    ClaimOutcome.Kind kind = outcome.kind();
    return kind == ClaimOutcome.Kind.UNKNOWN_CAMPAIGN ? null : valueOf(kind.name());
  }
}
