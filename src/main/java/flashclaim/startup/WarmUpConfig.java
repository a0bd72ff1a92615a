package flashclaim.startup;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * The start-up warm-up ({@code flashclaim.warm-up.*}): after the HTTP server starts, the instance
 * sends claims to itself, through its own port, on a scratch campaign that no one else can see,
 * and reports ready only once that is done or its time is up. Not to be confused with {@code
 * bin/warm-up}, the operator's ramp of a Firestore collection.
 *
 * @param enabled {@code false}: readiness does not wait; the instance meets its first users cold
 * @param maxTime the most the warm-up takes, store set-up included: readiness stops waiting for it
 *     then, whatever is left undone (the store's own readiness still counts)
 * @param requests the requests the warm-up sends, at most (it stops earlier at {@code maxTime})
 * @param claims the coupons it adds to the scratch campaign at each start, and so the claims
 *     answered 201 at most: each start leaves this many coupons and claims in the store
 * @param concurrency the warm-up's requests in flight at once
 * @param quietAnswers the warm-up also ends, before it has sent all its requests, once the JIT
 *     compiler is quiet on them: its last {@code quiet-answers} answers cost the compiler threads
 *     less than {@code quiet-compile-time} of compiling. The code its requests run is then
 *     compiled, and more of them would not make it faster. 0: off, it sends all its requests
 *     within {@code max-time}
 * @param quietCompileTime see {@code quiet-answers}
 */
@ConfigurationProperties("flashclaim.warm-up")
public record WarmUpConfig(
    @Bindable(defaultValue = "true") boolean enabled,
    @Bindable(defaultValue = "5s") Duration maxTime,
    @Bindable(defaultValue = "3000") int requests,
    @Bindable(defaultValue = "20") int claims,
    @Bindable(defaultValue = "8") int concurrency,
    @Bindable(defaultValue = "200") int quietAnswers,
    @Bindable(defaultValue = "20ms") Duration quietCompileTime) {

  public WarmUpConfig {
    if (maxTime.isNegative() || maxTime.isZero()) {
      throw new IllegalArgumentException("flashclaim.warm-up.max-time must be positive");
    }
    if (requests < 1 || claims < 1 || claims > 1000 || concurrency < 1 || concurrency > 64) {
      throw new IllegalArgumentException(
          "flashclaim.warm-up: requests must be at least 1, claims 1 to 1000, concurrency 1 to 64");
    }
    if (quietAnswers < 0 || quietCompileTime.isNegative()) {
      throw new IllegalArgumentException(
          "flashclaim.warm-up: quiet-answers and quiet-compile-time must not be negative");
    }
  }
}
