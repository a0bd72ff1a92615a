package flashclaim.campaign;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;

/**
 * Tunables of pool seeding ({@code flashclaim.seeding.*}).
 *
 * @param maxCodesPerRequest most codes one add-coupons request may carry or generate (more: 413)
 * @param batchSize documents per store batch write (Firestore allows 500)
 * @param parallelism batches written at the same time
 */
@ConfigurationProperties("flashclaim.seeding")
public record SeedingConfig(
    @Bindable(defaultValue = "100000") int maxCodesPerRequest,
    @Bindable(defaultValue = "500") int batchSize,
    @Bindable(defaultValue = "8") int parallelism) {}
