package flashclaim.http.claim;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * The claim door ({@code flashclaim.http.door.*}, {@link ClaimDoor}): the first step of a claim,
 * in front of the framework, which answers the claims whose answer is a refusal it knows without a
 * slot or store work of the claim's own.
 *
 * @param enabled answer at the door the refusals it can (429 {@code retry-too-soon}; for verified
 *     callers 403 for a campaign not open, 410 for a pool proven empty, 503 {@code overloaded}
 *     refused at once); false lets every claim through to the framework's pipeline, which answers
 *     them alike at more cost
 * @param maxCallers the most verified callers (credentials and campaign) one instance remembers, a
 *     hard bound on the memory (about 250 bytes each); past it the least recently used are
 *     forgotten, and their next claim goes through the whole pipeline and is remembered again
 * @param callerTtl how long a verified caller is remembered at most; never past its token's
 *     {@code exp}
 */
@ConfigurationProperties("flashclaim.http.door")
public record DoorConfig(
    @Bindable(defaultValue = "true") boolean enabled,
    @Bindable(defaultValue = "100000") int maxCallers,
    @Bindable(defaultValue = "10m") Duration callerTtl) {

  /** Refuses a configuration that cannot work: the service does not start with it. */
  public DoorConfig {
    if (maxCallers < 1) {
      throw new IllegalStateException("flashclaim.http.door.max-callers must be at least 1");
    }
    if (callerTtl.isNegative() || callerTtl.isZero()) {
      throw new IllegalStateException("flashclaim.http.door.caller-ttl must be positive");
    }
  }
}
