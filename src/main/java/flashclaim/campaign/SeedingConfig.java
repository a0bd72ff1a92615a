package flashclaim.campaign;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * Tunables of pool seeding ({@code flashclaim.seeding.*}).
 *
 * @param maxCodesPerRequest most codes one add-coupons request may carry or generate (more: 413)
 * @param batchSize documents per Firestore batch write (Firestore allows 500); PostgreSQL has
 *     {@code flashclaim.postgres.seed-batch-size}
 * @param parallelism Firestore batches written at the same time; PostgreSQL has {@code
 *     flashclaim.postgres.seed-parallelism}
 * @param maxDuration on Firestore, how long one add-coupons call may keep writing: no batch starts
 *     later than two store call timeouts before it ends, and a call that runs out answers 503 (a
 *     repeat adds the rest). It is also how long a call whose instance died mid-way keeps the
 *     sold-out fast path of the campaign off, since nobody can tell it has stopped writing
 */
@ConfigurationProperties("flashclaim.seeding")
public record SeedingConfig(
    @Bindable(defaultValue = "100000") int maxCodesPerRequest,
    @Bindable(defaultValue = "500") int batchSize,
    @Bindable(defaultValue = "8") int parallelism,
    @Bindable(defaultValue = "5m") Duration maxDuration) {}
