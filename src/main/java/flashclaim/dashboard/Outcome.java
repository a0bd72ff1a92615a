package flashclaim.dashboard;

import flashclaim.claim.ClaimOutcome;

/** What the dashboard counts of a claim's end. */
public enum Outcome {
  CLAIMED,
  ALREADY_HELD,
  SOLD_OUT,
  /** Outside its window, or paused (403 {@code campaign-not-open}, {@code campaign-paused}). */
  NOT_OPEN,
  BUSY,
  /** A store fault, answered 503 {@code store-unavailable}. */
  FAILED;

  /** The kind of {@code outcome}; null for an unknown campaign, which is not counted. */
  static Outcome of(ClaimOutcome outcome) {
    ClaimOutcome.Kind kind = outcome.kind();
    return switch (kind) {
      case UNKNOWN_CAMPAIGN -> null;
      case PAUSED -> NOT_OPEN;
      default -> valueOf(kind.name());
    };
  }
}
