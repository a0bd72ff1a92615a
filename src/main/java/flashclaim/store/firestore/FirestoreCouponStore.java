package flashclaim.store.firestore;

import static flashclaim.store.firestore.FirestoreCalls.await;

import com.google.cloud.Timestamp;
import com.google.cloud.firestore.AggregateField;
import com.google.cloud.firestore.AggregateQuerySnapshot;
import com.google.cloud.firestore.CollectionReference;
import com.google.cloud.firestore.DocumentReference;
import com.google.cloud.firestore.DocumentSnapshot;
import com.google.cloud.firestore.FieldValue;
import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.Query;
import com.google.cloud.firestore.WriteBatch;
import flashclaim.StoreException;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CouponCode;
import flashclaim.campaign.CouponStore;
import flashclaim.campaign.SeedingConfig;
import flashclaim.campaign.Stock;
import io.grpc.Status;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Requires;
import jakarta.annotation.PreDestroy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Seeding and stock, on Firestore. Seeding writes batches of up to 500
 * creates in parallel (the coupons and the batch's seeding record, which counts them for the
 * stock), and logs each committed batch: the emulator wrote 10,000 documents that way in about
 * 0.2 s, where BulkWriter's default throttle managed about 500 per second.
 *
 * <p>Each seeding call also moves the campaign's additions counter ({@link
 * FirestoreCampaignStore#couponsAdded}): once before its first batch (a transaction that counts it
 * as begun and extends {@code seedingUntil} to its lease, {@code max-duration} from the store's
 * time), and once after its last batch has committed (counted as ended). Two writes to the
 * campaign document per call, however many coupons: Firestore sustains about one write per second
 * per document. A call that fails or dies between the two stays in progress until its lease is
 * over; it starts no batch later than two call timeouts before that.
 */
@Context // created at startup, so that an unsafe max-duration refuses to start
@Requires(bean = Firestore.class)
final class FirestoreCouponStore implements CouponStore {
  private static final int MAX_CHUNK_ATTEMPTS = 5;
  private static final Logger LOG = LoggerFactory.getLogger(FirestoreCouponStore.class);

  private final Firestore db;
  private final FirestoreConfig config;
  private final SeedingConfig seeding;
  private final ExecutorService writers;

  FirestoreCouponStore(Firestore db, FirestoreConfig config, SeedingConfig seeding) {
    this.db = db;
    this.config = config;
    this.seeding = seeding;
    if (seeding.maxDuration().compareTo(config.callTimeout().multipliedBy(3)) < 0) {
      throw new IllegalStateException(
          "flashclaim.seeding.max-duration ("
              + seeding.maxDuration()
              + ") must be at least three times flashclaim.firestore.call-timeout ("
              + config.callTimeout()
              + "): no batch starts later than two call timeouts before it ends");
    }
    AtomicInteger n = new AtomicInteger();
    this.writers =
        Executors.newFixedThreadPool(
            seeding.parallelism(),
            r -> {
              Thread t = new Thread(r, "seeding-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
  }

  @PreDestroy
  void close() {
    writers.shutdownNow();
  }

  @Override
  public AddResult add(CampaignId campaign, List<CouponCode> codes) {
    Map<String, CouponCode> unique = new LinkedHashMap<>();
    for (CouponCode code : codes) {
      unique.putIfAbsent(FirestoreLayout.couponId(code), code);
    }
    long duplicatesInRequest = codes.size() - unique.size();
    List<Map.Entry<String, CouponCode>> entries = new ArrayList<>(unique.entrySet());
    if (entries.isEmpty()) {
      return new AddResult(0, duplicatesInRequest);
    }
    long lastBatchBy = beginSeeding(campaign);
    // One write of each batch is its seeding record.
    int batch = Math.max(1, Math.min(seeding.batchSize(), 500) - 1);
    Progress progress = new Progress(campaign, (entries.size() + batch - 1) / batch, entries.size());
    List<CompletableFuture<AddResult>> chunks = new ArrayList<>();
    for (int from = 0; from < entries.size(); from += batch) {
      List<Map.Entry<String, CouponCode>> chunk =
          entries.subList(from, Math.min(entries.size(), from + batch));
      chunks.add(
          CompletableFuture.supplyAsync(
              () -> progress.done(addChunk(campaign, chunk, lastBatchBy)), writers));
    }
    long added = 0;
    long skipped = duplicatesInRequest;
    try {
      for (CompletableFuture<AddResult> chunk : chunks) {
        AddResult result = chunk.join();
        added += result.added();
        skipped += result.skipped();
      }
    } catch (CompletionException e) {
      chunks.forEach(c -> c.cancel(true));
      if (e.getCause() instanceof StoreException store) {
        throw store;
      }
      throw e;
    }
    endSeeding(campaign);
    return new AddResult(added, skipped);
  }

  /**
   * Counts a seeding call as begun, in progress until the read time of this transaction plus
   * {@code max-duration} (or later, if another call's lease ends later).
   *
   * @return the {@link System#nanoTime} after which this call starts no batch: two call timeouts
   *     before its lease ends, measured from before the transaction began, so before the lease
   *     ends in the store's time too
   */
  private long beginSeeding(CampaignId campaign) {
    long started = System.nanoTime();
    Duration lease = seeding.maxDuration();
    DocumentReference ref = FirestoreLayout.campaign(db, campaign);
    await(
        () ->
            db.runTransaction(
                tx -> {
                  DocumentSnapshot doc = tx.get(ref).get();
                  Timestamp now = doc.getReadTime() != null ? doc.getReadTime() : Timestamp.now();
                  Timestamp until =
                      Timestamp.ofTimeSecondsAndNanos(
                          now.getSeconds() + lease.toSeconds(), now.getNanos());
                  Timestamp earlier = doc.getTimestamp(FirestoreLayout.SEEDING_UNTIL);
                  Map<String, Object> fields = new HashMap<>();
                  fields.put(FirestoreLayout.SEEDINGS_BEGUN, FieldValue.increment(1));
                  fields.put(
                      FirestoreLayout.SEEDING_UNTIL,
                      earlier != null && earlier.compareTo(until) > 0 ? earlier : until);
                  tx.update(ref, fields);
                  return null;
                }),
        config.callTimeout(),
        "count a seeding as begun");
    return started + lease.toNanos() - 2 * config.callTimeout().toNanos();
  }

  /**
   * Counts a seeding call as ended, after its last batch committed. If this write fails, the call
   * stays in progress until its lease is over: the fast path waits, the coupons are in.
   */
  private void endSeeding(CampaignId campaign) {
    try {
      await(
          () ->
              FirestoreLayout.campaign(db, campaign)
                  .update(FirestoreLayout.SEEDINGS_ENDED, FieldValue.increment(1)),
          config.callTimeout(),
          "count a seeding as ended");
    } catch (StoreException e) {
      LOG.warn(
          "Seeding of {} is complete but could not be counted as ended; the campaign's sold-out"
              + " fast path stays off until its lease is over: {}",
          campaign.value(),
          e.getMessage());
    }
  }

  /**
   * Creates the chunk's coupons that do not exist yet. The first try writes the whole chunk blind,
   * since fresh codes are the common case; a create of a document that exists fails the whole
   * batch atomically (ALREADY_EXISTS: a repeated request, or another request adding the same codes
   * at the same time), and then the chunk is read and only what is still missing is written.
   */
  private AddResult addChunk(
      CampaignId campaign, List<Map.Entry<String, CouponCode>> chunk, long lastBatchBy) {
    CollectionReference coupons = FirestoreLayout.coupons(db, campaign);
    DocumentReference[] refs =
        chunk.stream().map(e -> coupons.document(e.getKey())).toArray(DocumentReference[]::new);
    boolean[] missing = new boolean[refs.length];
    java.util.Arrays.fill(missing, true);
    for (int attempt = 1; ; attempt++) {
      WriteBatch writes = db.batch();
      int toCreate = 0;
      for (int i = 0; i < refs.length; i++) {
        if (missing[i]) {
          writes.create(refs[i], newCoupon(chunk.get(i).getValue()));
          toCreate++;
        }
      }
      if (toCreate == 0) {
        return new AddResult(0, chunk.size());
      }
      writes.create(
          FirestoreLayout.seedings(db, campaign).document(),
          Map.of(FirestoreLayout.ADDED, toCreate));
      if (System.nanoTime() - lastBatchBy > 0) {
        throw new StoreException(
            "seeding ran out of flashclaim.seeding.max-duration; repeat it to add the rest", null);
      }
      try {
        await(writes::commit, config.callTimeout(), "add coupons");
        return new AddResult(toCreate, chunk.size() - toCreate);
      } catch (StoreException e) {
        if (attempt >= MAX_CHUNK_ATTEMPTS
            || FirestoreCalls.codeOf(e.getCause()) != Status.Code.ALREADY_EXISTS) {
          throw e;
        }
      }
      List<DocumentSnapshot> existing =
          await(() -> db.getAll(refs), config.callTimeout(), "read coupons before adding");
      for (int i = 0; i < refs.length; i++) {
        missing[i] = !existing.get(i).exists();
      }
    }
  }

  /** Logs each committed batch of one seeding call, with the call's progress. */
  private static final class Progress {
    private final CampaignId campaign;
    private final int batches;
    private final long codes;
    private final AtomicInteger batchesDone = new AtomicInteger();
    private final AtomicLong codesDone = new AtomicLong();

    Progress(CampaignId campaign, int batches, long codes) {
      this.campaign = campaign;
      this.batches = batches;
      this.codes = codes;
    }

    AddResult done(AddResult batch) {
      long written = codesDone.addAndGet(batch.added() + batch.skipped());
      LOG.info(
          "Seeding {}: batch {} of {} written ({} added, {} present); {} of {} codes done",
          campaign.value(),
          batchesDone.incrementAndGet(),
          batches,
          batch.added(),
          batch.skipped(),
          written,
          codes);
      return batch;
    }
  }

  private static Map<String, Object> newCoupon(CouponCode code) {
    Map<String, Object> fields = new HashMap<>();
    fields.put(FirestoreLayout.CODE, code.value());
    fields.put(FirestoreLayout.IS_ASSIGNED, false);
    fields.put(FirestoreLayout.RANDOM_FLOAT, ThreadLocalRandom.current().nextDouble());
    return fields;
  }

  /**
   * Derived, not counted coupon by coupon: the total is the sum of the campaign's seeding records
   * (one per committed batch, so one aggregation read per 1,000 records, about 500,000 coupons) and
   * the assigned count is a count of the claim records (one claim record per assigned coupon, G5;
   * in production a count costs one read per 1,000 index entries, on the emulator it scans the
   * collection). Neither is a document that every claim writes. The assigned count is read first:
   * the total only grows, so the remaining count is never negative.
   */
  @Override
  public Stock stock(CampaignId campaign) {
    long assigned = count(FirestoreLayout.claims(db, campaign), "count claim records");
    AggregateField added = AggregateField.sum(FirestoreLayout.ADDED);
    AggregateField records = AggregateField.count();
    AggregateQuerySnapshot seedings =
        await(
            () -> FirestoreLayout.seedings(db, campaign).aggregate(added, records).get(),
            config.callTimeout(),
            "sum seeding records");
    if (((Number) seedings.get(records)).longValue() == 0) {
      // No seeding record: a campaign with no coupons, or one seeded before seeding records were
      // written. Count its coupons (one aggregation) rather than answer 0 for a full pool.
      return new Stock(count(FirestoreLayout.coupons(db, campaign), "count coupons"), assigned);
    }
    Number total = (Number) seedings.get(added);
    return new Stock(total == null ? 0 : total.longValue(), assigned);
  }

  /** The documents of {@code collection}, by one {@code count()} aggregation. */
  private long count(Query collection, String what) {
    return await(() -> collection.count().get(), config.callTimeout(), what).getCount();
  }
}
