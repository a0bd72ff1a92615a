package flashclaim.store.postgres;

import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.util.concurrent.atomic.LongAdder;

/** Calls of {@code claim_coupons} and the claim attempts they carried, since the start. */
@Singleton
@Requires(bean = PostgresCalls.class)
final class ClaimCallCounters {
  private final LongAdder calls = new LongAdder();
  private final LongAdder attempts = new LongAdder();

  /** One call carrying {@code n} attempts. */
  void sent(int n) {
    calls.increment();
    attempts.add(n);
  }

  long calls() {
    return calls.sum();
  }

  long attempts() {
    return attempts.sum();
  }
}
