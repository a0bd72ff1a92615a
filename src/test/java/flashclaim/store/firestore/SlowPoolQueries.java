package flashclaim.store.firestore;

import com.google.firestore.v1.RunQueryRequest;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.time.Duration;

/**
 * Holds every query of a campaign's coupons for {@link #slowDown} before it is sent, as a
 * saturated store answers it late, while every other call goes at once. {@link FirestoreFactory}
 * installs every client interceptor bean on the client's channel; this one exists only in
 * application contexts that set {@value #PROPERTY}.
 */
@Singleton
@Requires(property = SlowPoolQueries.PROPERTY, value = "true")
public final class SlowPoolQueries extends SentMessages {
  public static final String PROPERTY = "test.slow-pool-queries";

  private volatile Duration delay = Duration.ZERO;

  /** Queries of coupons sent from now on wait {@code delay} first. */
  public void slowDown(Duration delay) {
    this.delay = delay;
  }

  @Override
  protected void sent(Object message) {
    Duration wait = delay;
    if (wait.isZero()
        || !(message instanceof RunQueryRequest run)
        || run.getStructuredQuery().getFromCount() == 0
        || !run.getStructuredQuery().getFrom(0).getCollectionId().equals(FirestoreLayout.COUPONS)) {
      return;
    }
    try {
      Thread.sleep(wait.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
