package flashclaim.store.firestore;

import static flashclaim.store.firestore.FirestoreCalls.await;

import com.google.cloud.Timestamp;
import com.google.cloud.firestore.FieldValue;
import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.QueryDocumentSnapshot;
import com.google.cloud.firestore.QuerySnapshot;
import flashclaim.admission.FleetBoard;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The fleet board as documents {@code admission-fleet/{instanceId}} holding {@code bookedMillis}
 * and {@code writtenAt}, the store's time of the write (a server timestamp: a write of an unchanged
 * wait would otherwise leave the document, and its update time, as they were):
 * one document per instance, written by that instance only, at most once per publish interval
 * (within Firestore's one sustained write per second per document). A read is one query of the
 * whole collection, which holds the entries of the instances whose books reach ahead and of those
 * that died within the last {@code stale-after}: an entry's age is the query's read time less the
 * document's update time, both the store's clock. Stale entries are deleted, each conditioned on the
 * update time it was read with, so an instance that writes again in between keeps its entry.
 */
@Singleton
@Requires(bean = Firestore.class)
final class FirestoreFleetBoard implements FleetBoard {
  private final Firestore db;
  private final Duration timeout;

  FirestoreFleetBoard(Firestore db, FirestoreConfig config) {
    this.db = db;
    this.timeout = config.callTimeout();
  }

  @Override
  public void publish(String instanceId, Duration booked) {
    await(
        () ->
            FirestoreLayout.admissionFleet(db)
                .document(instanceId)
                .set(
                    Map.of(
                        FirestoreLayout.BOOKED_MILLIS,
                        booked.toMillis(),
                        FirestoreLayout.WRITTEN_AT,
                        FieldValue.serverTimestamp())),
        timeout,
        "write this instance's fleet entry");
  }

  @Override
  public void withdraw(String instanceId) {
    await(
        () -> FirestoreLayout.admissionFleet(db).document(instanceId).delete(),
        timeout,
        "delete this instance's fleet entry");
  }

  @Override
  public List<Entry> others(String instanceId, Duration staleAfter) {
    QuerySnapshot board =
        await(() -> FirestoreLayout.admissionFleet(db).get(), timeout, "read the fleet board");
    Timestamp readTime = board.getReadTime();
    List<Entry> fresh = new ArrayList<>();
    for (QueryDocumentSnapshot doc : board.getDocuments()) {
      if (doc.getId().equals(instanceId)) {
        continue;
      }
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
      Long booked = doc.getLong(FirestoreLayout.BOOKED_MILLIS);
      fresh.add(
          new Entry(
              doc.getId(),
              Duration.ofMillis(booked == null ? 0 : booked),
              age.isNegative() ? Duration.ZERO : age));
    }
    return fresh;
  }
}
