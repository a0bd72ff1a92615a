package flashclaim.testing;

import flashclaim.Deadline;
import flashclaim.campaign.Campaign;
import flashclaim.campaign.CampaignId;
import flashclaim.claim.Claim;
import flashclaim.claim.ClaimStore;
import flashclaim.claim.UserId;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Counts the calls an instance makes to its claim store's {@link ClaimStore#tryClaim}, the only
 * step of a claim that queries the pool, and to {@link ClaimStore#holdings}, whatever the store. It wraps the instance's real store
 * and changes nothing else; it exists only in application contexts that set {@value #PROPERTY}.
 */
@Singleton
@Requires(property = ClaimStoreCalls.PROPERTY, value = "true")
public final class ClaimStoreCalls implements BeanCreatedEventListener<ClaimStore> {
  public static final String PROPERTY = "test.count-claim-store-calls";

  private final LongAdder tryClaims = new LongAdder();
  private final LongAdder holdings = new LongAdder();

  /** Calls of {@link ClaimStore#tryClaim} so far. */
  public long tryClaims() {
    return tryClaims.sum();
  }

  /** Calls of {@link ClaimStore#holdings} so far: reads of one user's claim records. */
  public long holdings() {
    return holdings.sum();
  }

  @Override
  public ClaimStore onCreated(BeanCreatedEvent<ClaimStore> event) {
    ClaimStore store = event.getBean();
    return new ClaimStore() {
      @Override
      public List<Claim> holdings(Campaign campaign, UserId user, Deadline deadline) {
        holdings.increment();
        return store.holdings(campaign, user, deadline);
      }

      @Override
      public boolean forEachHolder(
          Campaign campaign, int pageSize, int max, Consumer<String> userKey) {
        return store.forEachHolder(campaign, pageSize, max, userKey);
      }

      @Override
      public Instant foundEmptyFrom(CampaignId campaign) {
        return store.foundEmptyFrom(campaign);
      }

      @Override
      public boolean runningOut(CampaignId campaign) {
        return store.runningOut(campaign);
      }

      @Override
      public Attempt tryClaim(Campaign campaign, UserId user, int slot, Deadline deadline) {
        tryClaims.increment();
        return store.tryClaim(campaign, user, slot, deadline);
      }
    };
  }
}
