package flashclaim.appcheck;

import java.util.Locale;

/** What the service does with the App Check token of a claim. */
public enum AppCheckMode {
  /** No check: the token is not read (local development, tests, load runs). */
  OFF,
  /** Every claim passes; missing and invalid tokens are counted and logged (rollout). */
  MONITOR,
  /** A claim without a valid token is refused with 401 {@code app-check-required}. */
  ENFORCE;

  /**
   * The mode of a configuration value ({@code off}, {@code monitor}, {@code enforce}).
   *
   * @throws IllegalArgumentException for any other value: a typo must not turn the check off
   */
  static AppCheckMode parse(String value) {
    for (AppCheckMode mode : values()) {
      if (mode.name().toLowerCase(Locale.ROOT).equals(value)) {
        return mode;
      }
    }
    throw new IllegalArgumentException(
        "flashclaim.app-check.mode must be off, monitor or enforce, not '" + value + "'");
  }
}
