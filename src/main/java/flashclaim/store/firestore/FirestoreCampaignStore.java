package flashclaim.store.firestore;

import static flashclaim.store.firestore.FirestoreCalls.await;

import com.google.cloud.Timestamp;
import com.google.cloud.firestore.DocumentSnapshot;
import com.google.cloud.firestore.FieldMask;
import com.google.cloud.firestore.Firestore;
import flashclaim.Deadline;
import flashclaim.StoreException;
import flashclaim.campaign.Campaign;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CampaignStore;
import flashclaim.campaign.PoolAdditions;
import io.grpc.Status;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

@Singleton
@Requires(bean = Firestore.class)
final class FirestoreCampaignStore implements CampaignStore {
  private final Firestore db;
  private final FirestoreConfig config;

  FirestoreCampaignStore(Firestore db, FirestoreConfig config) {
    this.db = db;
    this.config = config;
  }

  @Override
  public boolean create(Campaign campaign) {
    Map<String, Object> fields = new HashMap<>();
    fields.put(FirestoreLayout.NAME, campaign.name());
    fields.put(FirestoreLayout.PER_USER_LIMIT, campaign.perUserLimit());
    fields.put(FirestoreLayout.STARTS_AT, timestampOrNull(campaign.startsAt()));
    fields.put(FirestoreLayout.ENDS_AT, timestampOrNull(campaign.endsAt()));
    fields.put(FirestoreLayout.CREATED_AT, FirestoreCalls.timestamp(campaign.createdAt()));
    try {
      await(
          () -> FirestoreLayout.campaign(db, campaign.id()).create(fields),
          config.callTimeout(),
          "create a campaign");
      return true;
    } catch (StoreException e) {
      if (FirestoreCalls.codeOf(e.getCause()) == Status.Code.ALREADY_EXISTS) {
        return false;
      }
      throw e;
    }
  }

  @Override
  public Optional<Campaign> find(CampaignId id, Deadline deadline) {
    DocumentSnapshot doc =
        await(
            () -> FirestoreLayout.campaign(db, id).get(),
            deadline.timeout(config.callTimeout()),
            "read a campaign");
    if (!doc.exists()) {
      return Optional.empty();
    }
    Long limit = doc.getLong(FirestoreLayout.PER_USER_LIMIT);
    return Optional.of(
        new Campaign(
            id,
            doc.getString(FirestoreLayout.NAME),
            limit == null ? 1 : limit.intValue(),
            FirestoreCalls.instant(doc.getTimestamp(FirestoreLayout.STARTS_AT)),
            FirestoreCalls.instant(doc.getTimestamp(FirestoreLayout.ENDS_AT)),
            FirestoreCalls.instant(doc.getTimestamp(FirestoreLayout.CREATED_AT))));
  }

  /**
   * The seeding calls that began, read by id (only the three counter fields). A call is in
   * progress from its begin until its end; one that never ends (its instance died) until {@code
   * seedingUntil}, by which it has stopped writing. Both moments are the store's own time (the
   * read time of this read, the read time of the call's begin plus its lease), so the instances'
   * clocks play no part.
   */
  @Override
  public Optional<PoolAdditions> couponsAdded(CampaignId id) {
    DocumentSnapshot doc =
        await(
            () ->
                FirestoreLayout.campaign(db, id)
                    .get(
                        FieldMask.of(
                            FirestoreLayout.SEEDINGS_BEGUN,
                            FirestoreLayout.SEEDINGS_ENDED,
                            FirestoreLayout.SEEDING_UNTIL)),
            config.callTimeout(),
            "read a campaign's additions");
    if (!doc.exists()) {
      return Optional.empty();
    }
    long begun = countOf(doc, FirestoreLayout.SEEDINGS_BEGUN);
    long ended = countOf(doc, FirestoreLayout.SEEDINGS_ENDED);
    Timestamp until = doc.getTimestamp(FirestoreLayout.SEEDING_UNTIL);
    Timestamp readAt = doc.getReadTime();
    boolean inProgress =
        begun > ended && until != null && (readAt == null || readAt.compareTo(until) < 0);
    return Optional.of(new PoolAdditions(begun, inProgress));
  }

  private static long countOf(DocumentSnapshot doc, String field) {
    Long count = doc.getLong(field);
    return count == null ? 0 : count;
  }

  private static Object timestampOrNull(java.time.Instant instant) {
    return instant == null ? null : FirestoreCalls.timestamp(instant);
  }
}
