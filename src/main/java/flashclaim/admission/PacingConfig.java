package flashclaim.admission;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * Pacing of claims ({@code flashclaim.admission.pacing.*}, {@link ClaimPacing}): what an instance
 * remembers of the callers it told to come back later, so that a retry sooner than it was told is
 * answered 429 {@code retry-too-soon} from memory, before its token is checked.
 *
 * @param enabled answer a claim that comes back before the Retry-After of the 503 its caller was
 *     given for the same campaign with 429 {@code retry-too-soon}, from memory; false lets every
 *     retry through to authentication and admission
 * @param maxCallers the most callers (token and campaign) one instance remembers, a hard bound on
 *     the memory (about 150 bytes each); past it the ones least likely to come back are
 *     forgotten, and their next retry is let through
 * @param tolerance how much sooner than its Retry-After a retry is still let through, for a
 *     client whose timer fires a little early; never more than half the Retry-After, so a retry
 *     told to wait 1 s is let through after 0.5 s at the earliest
 * @param holdTooSoon how long the 429 to a retry too soon is held before it is sent, at most the
 *     wait its caller has left: a client that retries in a loop, waiting only for each answer,
 *     so sends about one claim per wait it was told, as a client that waits does, instead of one
 *     per round trip; the connection stays open meanwhile (a drain for shutdown sends every held
 *     answer at once); 0 answers at once
 * @param maxHeld the most 429s held at once on one instance; past it they are answered at once
 */
@ConfigurationProperties("flashclaim.admission.pacing")
public record PacingConfig(
    @Bindable(defaultValue = "true") boolean enabled,
    @Bindable(defaultValue = "100000") int maxCallers,
    @Bindable(defaultValue = "250ms") Duration tolerance,
    @Bindable(defaultValue = "5s") Duration holdTooSoon,
    @Bindable(defaultValue = "10000") int maxHeld) {

  /** Refuses a configuration that cannot work: the service does not start with it. */
  public PacingConfig {
    if (maxCallers < 1) {
      throw new IllegalStateException("flashclaim.admission.pacing.max-callers must be at least 1");
    }
    if (tolerance.isNegative()) {
      throw new IllegalStateException("flashclaim.admission.pacing.tolerance must not be negative");
    }
    if (holdTooSoon.isNegative()) {
      throw new IllegalStateException(
          "flashclaim.admission.pacing.hold-too-soon must not be negative");
    }
    if (maxHeld < 0) {
      throw new IllegalStateException("flashclaim.admission.pacing.max-held must not be negative");
    }
  }
}
