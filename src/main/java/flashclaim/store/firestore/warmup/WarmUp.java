package flashclaim.store.firestore.warmup;

import static flashclaim.store.firestore.FirestoreCalls.await;

import flashclaim.store.firestore.FirestoreCalls;
import flashclaim.store.firestore.FirestoreLayout;

import com.google.api.core.ApiFuture;
import com.google.api.core.ApiFutureCallback;
import com.google.api.core.ApiFutures;
import com.google.cloud.Timestamp;
import com.google.cloud.firestore.CollectionReference;
import com.google.cloud.firestore.DocumentSnapshot;
import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.QueryDocumentSnapshot;
import com.google.common.util.concurrent.MoreExecutors;
import com.google.common.util.concurrent.RateLimiter;
import flashclaim.campaign.CampaignId;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Synthetic traffic into a campaign's {@code claims} collection before its sale, following a
 * {@link WarmUpSchedule}, so that Firestore has split the collection when the sale's claim records
 * arrive. Every write is one of a warm-up document's two: its create (a fresh random 64-hex id,
 * the shape of a claim record's id, so the same key range, holding {@code warmUp: true}) or its
 * delete. A write is a delete when a created document is waiting to be deleted, else a create; so
 * the rate counts writes, as Firestore's rule does, and the collection ends empty.
 *
 * <p>Writes are paced by a rate limiter (spread evenly within each second) and at most {@link
 * #MAX_IN_FLIGHT} are in flight; when Firestore is slower than that, the rate falls below the
 * step's, which the step's line shows. A stop request (Ctrl-C) stops starting writes; what was
 * created is then deleted, as after the last step.
 */
final class WarmUp {
  /** The field that marks a warm-up document. */
  static final String WARM_UP = "warmUp";

  /** Writes in flight at most. */
  static final int MAX_IN_FLIGHT = 500;

  /** The most a read of the checks, or the wait for the writes in flight, may take. */
  static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);

  /** Rounds of deleting what is left, each after the writes of the previous one have ended. */
  private static final int CLEANUP_ROUNDS = 5;

  private final Firestore db;
  private final PrintStream out;

  WarmUp(Firestore db, PrintStream out) {
    this.db = db;
    this.out = out;
  }

  /** What a warm-up came to. */
  sealed interface Outcome {
    /** Nothing was written: the campaign cannot be warmed (missing, open, or holding claims). */
    record Refused(String reason) implements Outcome, Check {}

    /**
     * The warm-up ran (to its end, or until stopped), and deleted what it created, unless {@code
     * left} says otherwise.
     *
     * @param writes the writes of the schedule's steps, creates and deletes (at most the planned)
     * @param cleanupWrites the deletes after the last step (or the stop)
     * @param created documents whose create succeeded
     * @param deleted documents whose delete succeeded
     * @param errors writes that failed
     * @param left documents that may still exist
     * @param stopped whether a stop request ended it before its last step
     */
    record Ran(
        long writes,
        long cleanupWrites,
        long created,
        long deleted,
        long errors,
        long left,
        boolean stopped)
        implements Outcome {}
  }

  /** Whether the campaign can be warmed now. */
  sealed interface Check {}

  /** It can: it opens at {@code opens}, later than now, and has no claim records. */
  record Ready(Instant opens) implements Check {}

  /**
   * Reads the campaign: it cannot be warmed if it does not exist, is open already ({@code
   * startsAt} missing or not after the store's time: warm up before the sale opens), or its {@code
   * claims} collection holds a document.
   */
  Check check(CampaignId campaign) {
    DocumentSnapshot doc =
        await(() -> FirestoreLayout.campaign(db, campaign).get(), CALL_TIMEOUT, "read the campaign");
    if (!doc.exists()) {
      return new Outcome.Refused("campaign " + campaign.value() + " does not exist");
    }
    Timestamp startsAt = doc.getTimestamp(FirestoreLayout.STARTS_AT);
    Timestamp now = doc.getReadTime() != null ? doc.getReadTime() : Timestamp.now();
    if (startsAt == null || startsAt.compareTo(now) <= 0) {
      return new Outcome.Refused(
          "campaign "
              + campaign.value()
              + (startsAt == null ? " has no startsAt, so it is open" : " opened at " + startsAt)
              + ": warm up before the sale opens");
    }
    List<QueryDocumentSnapshot> first =
        await(
                () -> FirestoreLayout.claims(db, campaign).limit(1).get(),
                CALL_TIMEOUT,
                "read the campaign's claims")
            .getDocuments();
    if (!first.isEmpty()) {
      return new Outcome.Refused(
          Boolean.TRUE.equals(first.get(0).getBoolean(WARM_UP))
              ? "campaign "
                  + campaign.value()
                  + " holds documents of an interrupted warm-up ("
                  + WARM_UP
                  + ": true) in its claims; delete them first"
              : "campaign " + campaign.value() + " already has claim records");
    }
    return new Ready(FirestoreCalls.instant(startsAt));
  }

  /**
   * Checks the campaign ({@link #check}), prints the schedule, runs it and deletes what it
   * created.
   *
   * @param stop asked before each write; true stops the warm-up
   */
  Outcome run(CampaignId campaign, WarmUpSchedule schedule, BooleanSupplier stop) {
    Check check = check(campaign);
    if (check instanceof Outcome.Refused refused) {
      return refused;
    }
    Instant opens = ((Ready) check).opens();
    out.println("warm-up of campaigns/" + campaign.value() + "/claims:");
    schedule.describe().forEach(line -> out.println("  " + line));
    Instant rampEnds = Instant.now().plus(schedule.total());
    if (opens.isBefore(rampEnds)) {
      out.println(
          "warning: campaign " + campaign.value() + " opens at " + opens
              + ", before the warm-up ends (" + rampEnds + ")");
    }
    Writer writer = new Writer(FirestoreLayout.claims(db, campaign));
    List<WarmUpSchedule.Step> steps = schedule.steps();
    RateLimiter limiter = RateLimiter.create(steps.get(0).rate());
    long writes = 0;
    boolean stopped = false;
    for (int i = 0; i < steps.size() && !stopped; i++) {
      WarmUpSchedule.Step step = steps.get(i);
      limiter.setRate(step.rate());
      long started = System.nanoTime();
      long done = 0;
      while (done < step.writes() && !(stopped = stop.getAsBoolean())) {
        limiter.acquire();
        if (writer.write()) {
          done++;
        }
      }
      writes += done;
      double seconds = Math.max(1e-3, (System.nanoTime() - started) / 1e9);
      out.printf(
          "step %d of %d: rate %d/s (achieved %.0f/s), %d writes of %d, %d errors so far%n",
          i + 1, steps.size(), step.rate(), done / seconds, done, step.writes(), writer.errors.get());
    }
    if (stopped) {
      out.println("stopped: deleting what the warm-up created");
    }
    long cleanupWrites = writer.cleanUp(limiter);
    long left = writer.left();
    out.printf(
        "done: %d writes (%d created, %d deleted), %d deletes after the steps, %d errors, %d"
            + " documents left%n",
        writes, writer.created.get(), writer.deleted.get(), cleanupWrites, writer.errors.get(), left);
    return new Outcome.Ran(
        writes,
        cleanupWrites,
        writer.created.get(),
        writer.deleted.get(),
        writer.errors.get(),
        left,
        stopped);
  }

  /** Starts writes, at most {@link #MAX_IN_FLIGHT} at a time, and keeps their counts. */
  private static final class Writer {
    private final CollectionReference claims;
    private final Semaphore inFlight = new Semaphore(MAX_IN_FLIGHT);
    /** Documents that were created (or whose create may have landed) and are to be deleted. */
    private final Queue<String> toDelete = new ConcurrentLinkedQueue<>();
    private final AtomicLong created = new AtomicLong();
    private final AtomicLong deleted = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();

    Writer(CollectionReference claims) {
      this.claims = claims;
    }

    /**
     * Starts one write: a delete of a document waiting for it, else a create.
     *
     * @return false when no slot for a write freed up within a short wait (nothing started)
     */
    boolean write() {
      try {
        if (!inFlight.tryAcquire(100, TimeUnit.MILLISECONDS)) {
          return false;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
      String id = toDelete.poll();
      if (id != null) {
        delete(id);
      } else {
        create(newId());
      }
      return true;
    }

    private void create(String id) {
      // A create that failed may still have landed (a timeout): its document is deleted too; a
      // delete of a document that does not exist succeeds.
      track(
          () -> claims.document(id).create(Map.of(WARM_UP, true)),
          () -> {
            created.incrementAndGet();
            toDelete.add(id);
          },
          () -> toDelete.add(id));
    }

    private void delete(String id) {
      track(() -> claims.document(id).delete(), deleted::incrementAndGet, () -> toDelete.add(id));
    }

    /** Starts a write that holds a slot; the slot is free again when the write has ended. */
    private void track(Supplier<? extends ApiFuture<?>> start, Runnable succeeded, Runnable failed) {
      ApiFuture<?> call;
      try {
        call = start.get();
      } catch (RuntimeException e) {
        errors.incrementAndGet();
        failed.run();
        inFlight.release();
        return;
      }
      ApiFutures.addCallback(
          call,
          new ApiFutureCallback<Object>() {
            @Override
            public void onSuccess(Object result) {
              succeeded.run();
              inFlight.release();
            }

            @Override
            public void onFailure(Throwable failure) {
              errors.incrementAndGet();
              failed.run();
              inFlight.release();
            }
          },
          MoreExecutors.directExecutor());
    }

    /** Waits for the writes in flight, at most {@link #CALL_TIMEOUT}; false if some are left. */
    private boolean drain() {
      try {
        if (inFlight.tryAcquire(MAX_IN_FLIGHT, CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
          inFlight.release(MAX_IN_FLIGHT);
          return true;
        }
        return false;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }

    /** Deletes every document waiting for it, in rounds; returns the deletes started. */
    long cleanUp(RateLimiter limiter) {
      long writes = 0;
      for (int round = 0; round < CLEANUP_ROUNDS; round++) {
        if (!drain() && toDelete.isEmpty()) {
          continue;
        }
        if (toDelete.isEmpty()) {
          return writes;
        }
        for (String id = toDelete.poll(); id != null; id = toDelete.poll()) {
          limiter.acquire();
          try {
            inFlight.acquire();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            toDelete.add(id);
            return writes;
          }
          delete(id);
          writes++;
        }
      }
      drain();
      return writes;
    }

    /** Documents that may still exist: waiting for their delete, or with a write in flight. */
    long left() {
      return toDelete.size() + (MAX_IN_FLIGHT - inFlight.availablePermits());
    }

    private static String newId() {
      byte[] bytes = new byte[32];
      ThreadLocalRandom.current().nextBytes(bytes);
      return HexFormat.of().formatHex(bytes);
    }
  }
}
