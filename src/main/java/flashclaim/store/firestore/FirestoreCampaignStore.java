package flashclaim.store.firestore;

import static flashclaim.store.firestore.FirestoreCalls.await;

import com.google.cloud.Timestamp;
import com.google.cloud.firestore.DocumentReference;
import com.google.cloud.firestore.DocumentSnapshot;
import com.google.cloud.firestore.FieldMask;
import com.google.cloud.firestore.FieldPath;
import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.Precondition;
import com.google.cloud.firestore.Query;
import com.google.cloud.firestore.QueryDocumentSnapshot;
import com.google.cloud.firestore.WriteBatch;
import flashclaim.Deadline;
import flashclaim.StoreException;
import flashclaim.campaign.Campaign;
import flashclaim.campaign.CampaignChange;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CampaignPage;
import flashclaim.campaign.CampaignStore;
import flashclaim.campaign.ChangePage;
import flashclaim.campaign.PoolAdditions;
import io.grpc.Status;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * Campaigns on Firestore. The list is one query ordered by {@code createdAt} and the document id,
 * both descending (the single-field index of {@code createdAt}, declared in {@code
 * firestore.indexes.json}). A change is optimistic: the campaign is read, and its next version and
 * the change record are written in one atomic batch on the condition that the campaign document is
 * unchanged since that read (its update time) and that no record of that version exists; when
 * either fails, another write came first and the change is judged again on a fresh read.
 */
@Singleton
@Requires(bean = Firestore.class)
final class FirestoreCampaignStore implements CampaignStore {
  /** Fresh reads a change may take before it gives up to a store that keeps moving the campaign. */
  private static final int UPDATE_ATTEMPTS = 20;

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
    return doc.exists() ? Optional.of(campaignOf(doc)) : Optional.empty();
  }

  private static Campaign campaignOf(DocumentSnapshot doc) {
    Long limit = doc.getLong(FirestoreLayout.PER_USER_LIMIT);
    Long version = doc.getLong(FirestoreLayout.VERSION);
    return new Campaign(
        new CampaignId(doc.getId()),
        doc.getString(FirestoreLayout.NAME),
        limit == null ? 1 : limit.intValue(),
        FirestoreCalls.instant(doc.getTimestamp(FirestoreLayout.STARTS_AT)),
        FirestoreCalls.instant(doc.getTimestamp(FirestoreLayout.ENDS_AT)),
        FirestoreCalls.instant(doc.getTimestamp(FirestoreLayout.CREATED_AT)),
        Boolean.TRUE.equals(doc.getBoolean(FirestoreLayout.PAUSED)),
        version == null ? 0 : version);
  }

  @Override
  public CampaignPage list(int limit, Optional<CampaignPage.After> after) {
    Query query =
        db.collection(FirestoreLayout.CAMPAIGNS)
            .orderBy(FirestoreLayout.CREATED_AT, Query.Direction.DESCENDING)
            .orderBy(FieldPath.documentId(), Query.Direction.DESCENDING);
    if (after.isPresent()) {
      query =
          query.startAfter(
              FirestoreCalls.timestamp(after.get().createdAt()), after.get().id().value());
    }
    Query page = query.limit(limit + 1);
    List<Campaign> campaigns = new ArrayList<>();
    for (QueryDocumentSnapshot doc :
        await(page::get, config.callTimeout(), "list campaigns").getDocuments()) {
      campaigns.add(campaignOf(doc));
    }
    return CampaignPage.of(campaigns, limit);
  }

  @Override
  public Optional<Campaign> update(CampaignId id, Function<Campaign, Optional<Update>> change) {
    DocumentReference ref = FirestoreLayout.campaign(db, id);
    for (int attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
      DocumentSnapshot doc = await(ref::get, config.callTimeout(), "read a campaign to change");
      if (!doc.exists()) {
        return Optional.empty();
      }
      Campaign current = campaignOf(doc);
      Optional<Update> next = change.apply(current);
      if (next.isEmpty()) {
        return Optional.of(current);
      }
      Campaign campaign = next.get().campaign();
      Map<String, Object> fields = new HashMap<>();
      fields.put(FirestoreLayout.NAME, campaign.name());
      fields.put(FirestoreLayout.PER_USER_LIMIT, campaign.perUserLimit());
      fields.put(FirestoreLayout.STARTS_AT, timestampOrNull(campaign.startsAt()));
      fields.put(FirestoreLayout.ENDS_AT, timestampOrNull(campaign.endsAt()));
      fields.put(FirestoreLayout.PAUSED, campaign.paused());
      fields.put(FirestoreLayout.VERSION, campaign.version());
      WriteBatch batch = db.batch();
      batch.update(ref, fields, Precondition.updatedAt(doc.getUpdateTime()));
      batch.create(
          FirestoreLayout.changes(db, id).document(FirestoreLayout.changeId(campaign.version())),
          changeFields(next.get().change()));
      FirestoreCalls.Attempt<?> written =
          FirestoreCalls.attempt(batch::commit, config.callTimeout(), "change a campaign");
      if (written.ok()) {
        return Optional.of(campaign);
      }
      // moved since the read (FAILED_PRECONDITION), or its version recorded (ALREADY_EXISTS)
    }
    throw new StoreException(
        "the campaign " + id + " kept changing during " + UPDATE_ATTEMPTS + " attempts to change it",
        null);
  }

  private static Map<String, Object> changeFields(CampaignChange change) {
    Map<String, Object> fields = new HashMap<>();
    fields.put(FirestoreLayout.VERSION, change.version());
    fields.put(FirestoreLayout.CHANGED_BY, change.by());
    fields.put(FirestoreLayout.CHANGED_AT, FirestoreCalls.timestamp(change.at()));
    fields.put(FirestoreLayout.BEFORE, texts(change.before()));
    fields.put(FirestoreLayout.AFTER, texts(change.after()));
    return fields;
  }

  private static Map<String, Object> texts(Map<String, Object> values) {
    Map<String, Object> texts = new HashMap<>();
    values.forEach((field, value) -> texts.put(field, CampaignChange.text(value)));
    return texts;
  }

  @Override
  public ChangePage changes(CampaignId id, int limit, OptionalLong below) {
    // By the version field: Firestore scans document ids in ascending order only.
    Query query =
        FirestoreLayout.changes(db, id).orderBy(FirestoreLayout.VERSION, Query.Direction.DESCENDING);
    if (below.isPresent()) {
      query = query.startAfter(below.getAsLong());
    }
    Query page = query.limit(limit + 1);
    List<CampaignChange> changes = new ArrayList<>();
    for (QueryDocumentSnapshot doc :
        await(page::get, config.callTimeout(), "list a campaign's changes").getDocuments()) {
      changes.add(
          new CampaignChange(
              id,
              doc.getLong(FirestoreLayout.VERSION),
              doc.getString(FirestoreLayout.CHANGED_BY),
              FirestoreCalls.instant(doc.getTimestamp(FirestoreLayout.CHANGED_AT)),
              values(doc, FirestoreLayout.BEFORE),
              values(doc, FirestoreLayout.AFTER)));
    }
    return ChangePage.of(changes, limit);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> values(DocumentSnapshot doc, String field) {
    Map<String, Object> texts = (Map<String, Object>) doc.get(field);
    Map<String, Object> values = new LinkedHashMap<>();
    if (texts != null) {
      texts.forEach((name, text) -> values.put(name, CampaignChange.parse(name, (String) text)));
    }
    return values;
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
