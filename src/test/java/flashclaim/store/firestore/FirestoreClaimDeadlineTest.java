package flashclaim.store.firestore;

import com.google.cloud.firestore.DocumentReference;
import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.TransactionOptions;
import flashclaim.campaign.CampaignId;
import flashclaim.claim.ClaimDeadlineContract;
import flashclaim.claim.UserId;
import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.TestEmulator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The deadline contract on Firestore (the emulator): a transaction of the test's own client reads
 * the users' claim records, which locks them, so each claim's commit (which creates one) waits for
 * the lock; the emulator lets a write wait up to 2 s for one and then aborts it, and the call
 * timeout is 10 s. The writes that the deadline cut short are aborted, so none lands.
 */
class FirestoreClaimDeadlineTest extends ClaimDeadlineContract {
  /** How long the emulator lets a write wait for a lock before it aborts the write. */
  private static final Duration EMULATOR_LOCK_WAIT = Duration.ofSeconds(2);

  private final StoreBackend backend = new FirestoreBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }

  @Override
  protected Map<String, Object> storeProperties() {
    return Map.of("flashclaim.firestore.call-timeout", CALL_TIMEOUT.toMillis() + "ms");
  }

  @Override
  protected AutoCloseable stall(String campaign, List<UserId> users) throws Exception {
    Firestore db = TestEmulator.firestore();
    List<DocumentReference> records = new ArrayList<>();
    for (UserId user : users) {
      records.add(
          FirestoreLayout.claims(db, new CampaignId(campaign))
              .document(FirestoreLayout.claimId(user.key(), 0)));
    }
    CountDownLatch locked = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<Void> holder =
        CompletableFuture.runAsync(
            () -> {
              try {
                db.runTransaction(
                        tx -> {
                          tx.getAll(records.toArray(DocumentReference[]::new)).get();
                          locked.countDown();
                          release.await(120, TimeUnit.SECONDS);
                          return null; // writes nothing
                        },
                        TransactionOptions.createReadWriteOptionsBuilder()
                            .setNumberOfAttempts(1)
                            .build())
                    .get(180, TimeUnit.SECONDS);
              } catch (Exception e) {
                throw new IllegalStateException("the locking transaction failed", e);
              }
            });
    if (!locked.await(60, TimeUnit.SECONDS)) {
      throw new IllegalStateException("the claim records were not locked within 60 s");
    }
    return () -> {
      // Every claim has answered; the commits they cut short wait in the emulator until its lock
      // wait runs out, and are aborted then. Only after that does the lock go.
      Thread.sleep(EMULATOR_LOCK_WAIT.plusMillis(500).toMillis());
      release.countDown();
      holder.get(60, TimeUnit.SECONDS);
    };
  }
}
