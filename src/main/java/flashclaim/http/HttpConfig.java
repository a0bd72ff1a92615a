package flashclaim.http;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * Tunables of the HTTP layer ({@code flashclaim.http.*}).
 *
 * @param maxInFlight requests under {@code /v1} other than claims that one instance works on at
 *     once; more are shed with 503 and Retry-After instead of queueing without bound (claims have
 *     the adaptive limit of {@code flashclaim.admission.*})
 * @param retryAfter the Retry-After of such a shed request, of a request refused while the
 *     instance stops, and of a store that did not answer
 * @param lagProbeInterval how often each event loop is probed for how late it runs a task that was
 *     due (the {@code flashclaim.http.event.loop.lag} meter): a loop that falls behind delays every
 *     request on it before any filter sees it
 * @param arrivalCountsLoopLag a request's deadline counts from the moment its first filter ran
 *     less how far behind its event loop was then: the time it waited unread is part of its wait,
 *     as the client measures it. False: from the moment its first filter ran. (A new user's first
 *     arrival, their place in line, is that moment either way.)
 */
@ConfigurationProperties("flashclaim.http")
public record HttpConfig(
    @Bindable(defaultValue = "256") int maxInFlight,
    @Bindable(defaultValue = "1s") Duration retryAfter,
    @Bindable(defaultValue = "100ms") Duration lagProbeInterval,
    @Bindable(defaultValue = "true") boolean arrivalCountsLoopLag) {}
