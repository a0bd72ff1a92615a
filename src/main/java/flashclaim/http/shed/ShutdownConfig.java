package flashclaim.http.shed;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * How an instance stops ({@code flashclaim.shutdown.*}).
 *
 * @param gracePeriod the longest it waits for the API requests in flight to answer before it
 *     closes the store anyway; keep it below the platform's kill timeout (10 s on Cloud Run)
 * @param flushMargin how long it waits after the last answer left the filters, so that the
 *     response is written to its connection before the server closes it
 */
@ConfigurationProperties("flashclaim.shutdown")
public record ShutdownConfig(
    @Bindable(defaultValue = "8s") Duration gracePeriod,
    @Bindable(defaultValue = "200ms") Duration flushMargin) {}
