package flashclaim.bench;

import com.google.cloud.firestore.CollectionReference;
import com.google.cloud.firestore.FieldPath;
import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.Query;
import com.google.cloud.firestore.WriteBatch;
import flashclaim.testing.TestEmulator;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * What one probe of the pool costs on the Firestore emulator, by collection size, query shape and
 * limit: the measurement behind the optimistic strategy's demand-sized probes (on the emulator a
 * query scans the whole collection whatever its limit, so few large probes beat many small ones).
 * Each shape runs 5 times after one warm-up run; 10% of the coupons are assigned.
 *
 * <p>Run: {@code ./mvnw -q -DskipTests test-compile exec:exec -Dexec.classpathScope=test
 * -Dexec.executable=java -Dexec.args="-cp %classpath flashclaim.bench.ProbeQueryCost"}
 */
public final class ProbeQueryCost {
  private static final int RUNS = 5;

  private ProbeQueryCost() {}

  public static void main(String[] args) throws Exception {
    Firestore db = TestEmulator.firestore();
    for (int size : new int[] {5_000, 50_000}) {
      TestEmulator.reset();
      seed(db, db.collection("coupons"), size);
      Query unassigned = db.collection("coupons").whereEqualTo("isAssigned", false);
      time(size, "current probe, limit 200", () -> probe(unassigned).limit(200));
      time(size, "current probe, limit 1000", () -> probe(unassigned).limit(1_000));
      time(size, "filter only, key order, limit 200", () -> unassigned.limit(200));
      time(
          size,
          "filter, from a random document id, limit 200",
          () ->
              unassigned
                  .orderBy(FieldPath.documentId())
                  .startAt(db.collection("coupons").document(randomId()))
                  .limit(200));
      time(
          size,
          "no filter, from a random randomFloat, limit 200",
          () -> db.collection("coupons").orderBy("randomFloat").startAt(Math.random()).limit(200));
    }
    System.exit(0); // the emulator's shutdown hook stops it
  }

  /** The optimistic strategy's probe from a random point, without its limit. */
  static Query probe(Query unassigned) {
    return unassigned.orderBy("randomFloat").startAt(Math.random());
  }

  /**
   * Seeds {@code size} coupons into {@code coupons} in parallel batches of 500, 10 % of them
   * assigned, each with a {@code randomFloat}.
   */
  static void seed(Firestore db, CollectionReference coupons, int size) throws Exception {
    ExecutorService writers = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> batches = new ArrayList<>();
      for (int b = 0; b < size / 500; b++) {
        batches.add(
            writers.submit(
                () -> {
                  WriteBatch batch = db.batch();
                  for (int i = 0; i < 500; i++) {
                    batch.create(
                        coupons.document(randomId()),
                        Map.of(
                            "isAssigned", ThreadLocalRandom.current().nextInt(10) == 0,
                            "randomFloat", Math.random()));
                  }
                  return batch.commit().get();
                }));
      }
      for (Future<?> batch : batches) {
        batch.get();
      }
    } finally {
      writers.shutdown();
    }
  }

  private static String randomId() {
    byte[] id = new byte[16];
    ThreadLocalRandom.current().nextBytes(id);
    return HexFormat.of().formatHex(id);
  }

  /** Times {@code RUNS} runs of the query {@code query} gives, after one warm-up run. */
  static void time(int size, String name, Supplier<Query> query) throws Exception {
    query.get().get().get(); // warm-up
    int found = 0;
    long started = System.nanoTime();
    for (int i = 0; i < RUNS; i++) {
      found += query.get().get().get().size();
    }
    System.out.printf(
        "%6d coupons  %-48s %7.1f ms per query  (%d found)%n",
        size, name, (System.nanoTime() - started) / 1e6 / RUNS, found / RUNS);
  }
}
