package flashclaim.claim;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * Tunables of the holders of closed campaigns ({@code flashclaim.closed-holders.*}), see {@link
 * ClosedHolders}.
 *
 * @param maxHolders claim records of paused or ended campaigns that one instance keeps in memory,
 *     all campaigns together (8 bytes each), so that a claim of a user who does not hold the
 *     campaign's limit is refused without a store read; a campaign with more records than fit
 *     reads the user's claims for each claim while it is closed
 * @param holderPageSize claim records per page when an instance reads a closed campaign's holders
 * @param settleMargin added to {@code flashclaim.claim.campaign-cache-ttl} and {@code
 *     flashclaim.claim.deadline} to make the wait, from the moment an instance first sees a
 *     campaign paused or ended, before it reads the holders: by then no instance can still commit a
 *     claim of it. It covers the clock skew between instances (the end of a window is judged by each
 *     instance's clock) and how late a commit cut short by the deadline may land
 */
@ConfigurationProperties("flashclaim.closed-holders")
public record ClosedHoldersConfig(
    @Bindable(defaultValue = "2000000") int maxHolders,
    @Bindable(defaultValue = "10000") int holderPageSize,
    @Bindable(defaultValue = "2s") Duration settleMargin) {

  public ClosedHoldersConfig {
    if (holderPageSize < 1) {
      throw new IllegalArgumentException("flashclaim.closed-holders.holder-page-size must be at least 1");
    }
    if (settleMargin.isNegative() || settleMargin.compareTo(Duration.ofMinutes(1)) > 0) {
      throw new IllegalArgumentException(
          "flashclaim.closed-holders.settle-margin must be between 0s and 1m");
    }
  }
}
