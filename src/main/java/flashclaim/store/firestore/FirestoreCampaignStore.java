package flashclaim.store.firestore;

import static flashclaim.store.firestore.FirestoreCalls.await;

import com.google.cloud.firestore.DocumentSnapshot;
import com.google.cloud.firestore.Firestore;
import flashclaim.Deadline;
import flashclaim.StoreException;
import flashclaim.campaign.Campaign;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CampaignStore;
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

  private static Object timestampOrNull(java.time.Instant instant) {
    return instant == null ? null : FirestoreCalls.timestamp(instant);
  }
}
