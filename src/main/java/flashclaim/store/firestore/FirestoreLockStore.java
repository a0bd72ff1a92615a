package flashclaim.store.firestore;

import static flashclaim.store.firestore.FirestoreCalls.await;

import com.google.cloud.Timestamp;
import com.google.cloud.firestore.DocumentReference;
import com.google.cloud.firestore.DocumentSnapshot;
import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.Precondition;
import com.google.cloud.firestore.WriteResult;
import flashclaim.lock.LockStore;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Locks as documents {@code locks/{lockId}}. No transaction anywhere: the first acquisition is a
 * create (fails with ALREADY_EXISTS for all but one), every later write an update with the
 * precondition "updated at the time I saw it" (fails with FAILED_PRECONDITION for all but one). On
 * the emulator that costs one round trip and no lock wait, where a contended transaction waits up
 * to 2 s.
 */
@Singleton
@Requires(bean = Firestore.class)
final class FirestoreLockStore implements LockStore {
  private final Firestore db;
  private final Duration timeout;

  FirestoreLockStore(Firestore db, FirestoreConfig config) {
    this.db = db;
    this.timeout = config.callTimeout();
  }

  @Override
  public Optional<LockState> read(String lockId) {
    DocumentSnapshot doc = await(() -> ref(lockId).get(), timeout, "read a lock");
    if (!doc.exists()) {
      return Optional.empty();
    }
    Long fence = doc.getLong(FirestoreLayout.FENCE);
    return Optional.of(
        new LockState(
            lockId,
            fence == null ? 0 : fence,
            doc.getString(FirestoreLayout.OWNER),
            FirestoreCalls.instant(doc.getTimestamp(FirestoreLayout.LOCKED_UNTIL)),
            doc.getUpdateTime()));
  }

  @Override
  public Optional<Lease> create(String lockId, String owner, Instant lockedUntil) {
    return write(
        lockId,
        owner,
        1,
        lockedUntil,
        FirestoreCalls.attempt(
            () -> ref(lockId).create(holder(owner, 1, lockedUntil)), timeout, "create a lock"));
  }

  @Override
  public Optional<Lease> takeOver(LockState seen, String owner, Instant lockedUntil) {
    long fence = seen.fencingToken() + 1;
    return write(
        seen.lockId(),
        owner,
        fence,
        lockedUntil,
        FirestoreCalls.attempt(
            () ->
                ref(seen.lockId())
                    .update(holder(owner, fence, lockedUntil), unchangedSince(seen.version())),
            timeout,
            "take over a lock"));
  }

  @Override
  public Optional<Lease> renew(Lease held, Instant lockedUntil) {
    Map<String, Object> fields = new HashMap<>();
    fields.put(FirestoreLayout.LOCKED_UNTIL, FirestoreCalls.timestamp(lockedUntil));
    return write(
        held.lockId(),
        held.owner(),
        held.fencingToken(),
        lockedUntil,
        FirestoreCalls.attempt(
            () -> ref(held.lockId()).update(fields, unchangedSince(held.version())),
            timeout,
            "renew a lock"));
  }

  @Override
  public boolean release(Lease held, Instant now) {
    Map<String, Object> fields = new HashMap<>();
    fields.put(FirestoreLayout.OWNER, null);
    fields.put(FirestoreLayout.LOCKED_UNTIL, FirestoreCalls.timestamp(now));
    return FirestoreCalls.attempt(
            () -> ref(held.lockId()).update(fields, unchangedSince(held.version())),
            timeout,
            "release a lock")
        .ok();
  }

  private DocumentReference ref(String lockId) {
    return FirestoreLayout.lock(db, lockId);
  }

  private static Map<String, Object> holder(String owner, long fence, Instant lockedUntil) {
    Map<String, Object> fields = new HashMap<>();
    fields.put(FirestoreLayout.OWNER, owner);
    fields.put(FirestoreLayout.LOCKED_UNTIL, FirestoreCalls.timestamp(lockedUntil));
    fields.put(FirestoreLayout.FENCE, fence);
    return fields;
  }

  /** The precondition that the document is exactly the version that was read or written. */
  private static Precondition unchangedSince(Object version) {
    return Precondition.updatedAt((Timestamp) version);
  }

  /** The lease a write made, with the document's new update time; empty when it lost. */
  private static Optional<Lease> write(
      String lockId,
      String owner,
      long fence,
      Instant lockedUntil,
      FirestoreCalls.Attempt<WriteResult> result) {
    return result.ok()
        ? Optional.of(new Lease(lockId, owner, fence, lockedUntil, result.value().getUpdateTime()))
        : Optional.empty();
  }
}
