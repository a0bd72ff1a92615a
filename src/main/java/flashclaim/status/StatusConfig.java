package flashclaim.status;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;
import java.util.Set;

/**
 * The campaign status that apps poll, {@code GET /v1/campaigns/{id}} ({@code flashclaim.status.*}).
 *
 * @param stockMaxAge how long an instance answers with a stock it read before it reads it again:
 *     however many phones poll, each instance reads a campaign's stock at most once per this
 *     interval, one read at a time, answering from its last reading meanwhile; a reading twice
 *     this old is no longer served (under steady polling the remaining count is at most this plus
 *     one read old)
 * @param maxCampaigns campaigns whose status one instance keeps; past it, the least used are
 *     dropped, so memory stays bounded whatever ids arrive (only existing campaigns are kept)
 * @param maxAge the {@code max-age} of the answer's {@code Cache-Control}: how long a phone or a
 *     cache may reuse it without asking
 * @param cacheScope {@code private} (only the phone's own cache may keep the answer) or {@code
 *     public} (shared caches such as a CDN may too: the answer is the same for every user)
 */
@ConfigurationProperties("flashclaim.status")
public record StatusConfig(
    @Bindable(defaultValue = "1s") Duration stockMaxAge,
    @Bindable(defaultValue = "1000") int maxCampaigns,
    @Bindable(defaultValue = "1s") Duration maxAge,
    @Bindable(defaultValue = "private") String cacheScope) {

  private static final Set<String> SCOPES = Set.of("private", "public");

  public StatusConfig {
    if (!positive(stockMaxAge) || maxAge.isNegative()) {
      throw new IllegalArgumentException(
          "flashclaim.status.stock-max-age must be positive and max-age not negative");
    }
    if (maxCampaigns < 1) {
      throw new IllegalArgumentException("flashclaim.status.max-campaigns must be at least 1");
    }
    if (!SCOPES.contains(cacheScope)) {
      throw new IllegalArgumentException(
          "flashclaim.status.cache-scope must be private or public, not '" + cacheScope + "'");
    }
  }

  /** The {@code Cache-Control} of a status answer. */
  public String cacheControl() {
    return cacheScope + ", max-age=" + maxAge.toSeconds();
  }

  private static boolean positive(Duration d) {
    return !d.isNegative() && !d.isZero();
  }
}
