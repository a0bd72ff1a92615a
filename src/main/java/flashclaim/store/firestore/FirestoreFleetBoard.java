package flashclaim.store.firestore;

import static flashclaim.store.firestore.FirestoreCalls.await;

import com.google.cloud.Timestamp;
import com.google.cloud.firestore.FieldValue;
import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.QueryDocumentSnapshot;
import com.google.cloud.firestore.QuerySnapshot;
import com.google.cloud.firestore.WriteBatch;
import flashclaim.admission.FleetBoard;
import flashclaim.admission.FleetConfig;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import io.micronaut.core.annotation.Nullable;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The fleet board as documents of {@code admission-fleet}, each holding {@code instance} (the
 * instance's id), {@code bookedMillis}, {@code heldFromMillis} (the earliest first arrival the
 * instance holds back, epoch milliseconds; null: none) and {@code writtenAt}, the store's time of
 * the write (a
 * server timestamp: a write of an unchanged wait would otherwise leave the document, and its update
 * time, as they were).
 *
 * <p>Firestore takes one sustained write per second per document. With {@code fleet.interval} of
 * a second or more an instance has one document, {@code {instanceId}}; with a shorter interval its
 * writes go round {@code ceil(1 s / interval)} documents {@code {instanceId}.{k}}, so that each is
 * still written at most once a second, and a reader takes the youngest of them.
 *
 * <p>A read is one query of the whole collection, which holds the entries of the instances whose
 * books reach ahead and of those that died within the last {@code stale-after}: a document's age
 * is the query's read time less the document's update time, both the store's clock. Stale
 * documents are deleted, each conditioned on the update time it was read with, so an instance that
 * writes it again in between keeps it.
 */
@Singleton
@Requires(bean = Firestore.class)
final class FirestoreFleetBoard implements FleetBoard {
  private static final Duration PER_DOCUMENT = Duration.ofSeconds(1);

  private final Firestore db;
  private final Duration timeout;
  /** Documents per instance: each written at most once per {@link #PER_DOCUMENT}. */
  private final int documents;
  /** Writes made so far per instance id, which pick the next document. */
  private final Map<String, AtomicLong> writes = new ConcurrentHashMap<>();

  FirestoreFleetBoard(Firestore db, FirestoreConfig config, FleetConfig fleet) {
    this.db = db;
    this.timeout = config.callTimeout();
    this.documents = documentsPerInstance(fleet.interval());
  }

  /** How many documents an instance's writes go round at this interval: at least one. */
  static int documentsPerInstance(Duration interval) {
    long perDocument = PER_DOCUMENT.toNanos();
    long fractions = (perDocument + interval.toNanos() - 1) / interval.toNanos();
    return (int) Math.max(1, Math.min(100, fractions));
  }

  @Override
  public void publish(String instanceId, Duration booked, @Nullable Instant heldFrom) {
    long k = writes.computeIfAbsent(instanceId, id -> new AtomicLong()).getAndIncrement();
    Map<String, Object> fields = new HashMap<>();
    fields.put(FirestoreLayout.INSTANCE, instanceId);
    fields.put(FirestoreLayout.BOOKED_MILLIS, booked.toMillis());
    fields.put(FirestoreLayout.HELD_FROM_MILLIS, heldFrom == null ? null : heldFrom.toEpochMilli());
    fields.put(FirestoreLayout.WRITTEN_AT, FieldValue.serverTimestamp());
    await(
        () ->
            FirestoreLayout.admissionFleet(db)
                .document(documentId(instanceId, (int) (k % documents)))
                .set(fields),
        timeout,
        "write this instance's fleet entry");
  }

  @Override
  public void withdraw(String instanceId) {
    WriteBatch batch = db.batch();
    for (int k = 0; k < documents; k++) {
      batch.delete(FirestoreLayout.admissionFleet(db).document(documentId(instanceId, k)));
    }
    await(batch::commit, timeout, "delete this instance's fleet entry");
  }

  @Override
  public List<Entry> others(String instanceId, Duration staleAfter) {
    QuerySnapshot board =
        await(() -> FirestoreLayout.admissionFleet(db).get(), timeout, "read the fleet board");
    Timestamp readTime = board.getReadTime();
    Map<String, Entry> youngest = new HashMap<>();
    for (QueryDocumentSnapshot doc : board.getDocuments()) {
      Duration age =
          Duration.between(
              FirestoreCalls.instant(doc.getUpdateTime()), FirestoreCalls.instant(readTime));
      if (age.compareTo(staleAfter) >= 0) {
        VersionedDocuments.deleteIf(
            doc.getReference(),
            VersionedDocuments.versionOf(doc),
            timeout,
            "delete a stale fleet entry");
        continue;
      }
      String instance = doc.getString(FirestoreLayout.INSTANCE);
      Long booked = doc.getLong(FirestoreLayout.BOOKED_MILLIS);
      Long heldFrom = doc.getLong(FirestoreLayout.HELD_FROM_MILLIS);
      if (instance == null || instance.equals(instanceId)) {
        continue;
      }
      Entry entry =
          new Entry(
              instance,
              Duration.ofMillis(booked == null ? 0 : booked),
              heldFrom == null ? null : Instant.ofEpochMilli(heldFrom),
              age.isNegative() ? Duration.ZERO : age);
      youngest.merge(instance, entry, (a, b) -> a.age().compareTo(b.age()) <= 0 ? a : b);
    }
    return new ArrayList<>(youngest.values());
  }

  private String documentId(String instanceId, int k) {
    return documents == 1 ? instanceId : instanceId + "." + k;
  }
}
