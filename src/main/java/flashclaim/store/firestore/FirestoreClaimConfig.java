package flashclaim.store.firestore;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * How the Firestore store takes a coupon ({@code flashclaim.firestore.claim.*}); the rules every
 * store shares are {@code flashclaim.claim.*}.
 *
 * @param strategy the claim strategy: {@code optimistic} (default) or {@code seed} (the original
 *     design, kept as the benchmark's baseline); any other name stops the service from starting
 * @param candidates the most unassigned coupons one probe of the pool reads; a probe reads as many
 *     as the instance's claims took over the last {@code candidateMaxAge}, at least {@code 2 *
 *     refillBelow}; an instance's claims share them
 * @param refillBelow when an instance holds fewer candidates than this, it probes again in the
 *     background, ahead of need
 * @param firstProbe the least that the first probe of a campaign's pool on an instance reads (up to
 *     {@code candidates}; 0: as any other probe): a sale's first claims all wait for that probe,
 *     while the instance is not yet loaded, and the probes after it start once they have taken all
 *     but {@code refillBelow}
 * @param probeThreads threads that run those probes (at most one per campaign at a time)
 * @param candidateMaxAge how long a probed coupon stays a candidate before it is dropped unused
 * @param candidatePools campaigns one instance keeps candidates of; past it, the least used
 *     campaign's candidates are dropped (its next claim probes afresh)
 */
@ConfigurationProperties("flashclaim.firestore.claim")
public record FirestoreClaimConfig(
    @Bindable(defaultValue = "optimistic") String strategy,
    @Bindable(defaultValue = "1000") int candidates,
    @Bindable(defaultValue = "50") int refillBelow,
    @Bindable(defaultValue = "0") int firstProbe,
    @Bindable(defaultValue = "2") int probeThreads,
    @Bindable(defaultValue = "2s") Duration candidateMaxAge,
    @Bindable(defaultValue = "1000") int candidatePools) {}
