package flashclaim.claim;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * The claim rules' tunables, the same on every store ({@code flashclaim.claim.*}); how a store
 * takes a coupon is its own configuration's.
 *
 * @param deadline how long one claim may keep trying before it answers 503, counted from its
 *     admission; no store call of the claim starts after it or waits past it
 * @param retryAfter what the 503 tells the client to wait
 */
@ConfigurationProperties("flashclaim.claim")
public record ClaimConfig(
    @Bindable(defaultValue = "2s") Duration deadline,
    @Bindable(defaultValue = "1s") Duration retryAfter) {}
