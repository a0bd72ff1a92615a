package flashclaim.store.firestore;

import flashclaim.campaign.Campaign;
import flashclaim.claim.Claim;
import flashclaim.claim.ClaimStore;
import flashclaim.claim.UserId;
import java.time.Clock;
import java.util.List;

/**
 * What the Firestore claim strategies share: the documents, the clock, the contention counters,
 * and how a user's holdings are read. A strategy is only its {@link #tryClaim}.
 */
abstract class FirestoreClaimStrategy implements ClaimStore {
  protected final ClaimDocuments docs;
  protected final Clock clock;
  protected final ContentionCounters counters;

  FirestoreClaimStrategy(ClaimDocuments docs, Clock clock, ContentionCounters counters) {
    this.docs = docs;
    this.clock = clock;
    this.counters = counters;
  }

  @Override
  public List<Claim> holdings(Campaign campaign, UserId user) {
    return docs.holdings(campaign, user);
  }
}
