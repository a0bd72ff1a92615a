package flashclaim.metrics;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;

/**
 * Tunables of the service's own meters ({@code flashclaim.metrics.*}).
 *
 * @param maxCampaignTags how many distinct campaigns one instance tags its claim meters with; the
 *     claims of any further campaign are tagged {@code campaign=other}, so a flood of campaign ids
 *     cannot grow the number of time series without bound
 */
@ConfigurationProperties("flashclaim.metrics")
public record MetricsConfig(@Bindable(defaultValue = "100") int maxCampaignTags) {}
