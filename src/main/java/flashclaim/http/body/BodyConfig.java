package flashclaim.http.body;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import io.micronaut.core.convert.format.ReadableBytes;
import java.time.Duration;

/**
 * Limits on request bodies ({@code flashclaim.http.bodies.*}), applied by {@link BodyLimitFilter}
 * before a body is buffered. {@code micronaut.server.max-request-buffer-size} is the framework's
 * ceiling on a body it holds whole: keep it at least {@code admin-max-size}; {@code
 * micronaut.server.max-request-size} its ceiling on a streamed one: keep it at least {@code
 * file-max-size}.
 *
 * @param adminMaxSize the largest body of an admin route ({@code /v1/admin/**}), e.g. a seeding
 *     request with its codes; read only once the caller is known to be an admin
 * @param fileMaxSize the largest file of codes an admin may upload ({@code text/csv} or {@code
 *     text/plain} to add-coupons, 1,000,000 codes of up to 64 characters and more): streamed to
 *     the route, never held whole, so it costs no memory; it bounds how long one upload may go on.
 *     {@code micronaut.server.max-request-size} must be at least this
 * @param webhookMaxSize the largest body of a redemption webhook delivery
 * @param defaultMaxSize the largest body of every other route; these take no body (the claim
 *     route included), so one up to this size is ignored and a larger one is refused
 * @param sharedBudget bytes of request bodies that callers other than admins on admin routes may
 *     hold at once, all requests together; a body that does not fit gets 503 with Retry-After
 * @param readTimeout how long a body may take to arrive in full, counted from when the request's
 *     filters start reading it; a slower body gets 408
 * @param linger how long the rest of a refused body that was not read to its end is still taken
 *     (and dropped) before its connection is closed: time for the client to read the refusal
 */
@ConfigurationProperties("flashclaim.http.bodies")
public record BodyConfig(
    @Bindable(defaultValue = "8MB") @ReadableBytes int adminMaxSize,
    @Bindable(defaultValue = "256MB") @ReadableBytes int fileMaxSize,
    @Bindable(defaultValue = "64KB") @ReadableBytes int webhookMaxSize,
    @Bindable(defaultValue = "1KB") @ReadableBytes int defaultMaxSize,
    @Bindable(defaultValue = "4MB") @ReadableBytes int sharedBudget,
    @Bindable(defaultValue = "10s") Duration readTimeout,
    @Bindable(defaultValue = "5s") Duration linger) {

  public BodyConfig {
    if (Math.max(webhookMaxSize, defaultMaxSize) > sharedBudget) {
      throw new IllegalArgumentException(
          "flashclaim.http.bodies.shared-budget must hold at least one body of the largest size it"
              + " covers (webhook-max-size, default-max-size)");
    }
    if (fileMaxSize < 1) {
      throw new IllegalArgumentException("flashclaim.http.bodies.file-max-size must be positive");
    }
    if (readTimeout.isNegative() || readTimeout.isZero() || linger.isNegative()) {
      throw new IllegalArgumentException(
          "flashclaim.http.bodies.read-timeout must be positive, linger not negative");
    }
  }
}
