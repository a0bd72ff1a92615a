package flashclaim.bench;

import com.google.cloud.firestore.CollectionReference;
import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.Query;
import flashclaim.testing.TestEmulator;

/**
 * Whether a campaign's pool query on the Firestore emulator costs more when another campaign of
 * the same database holds many coupons: the load runs seed a calibration campaign (30,000 coupons)
 * and a floor campaign before the measured one, each under its own {@code campaigns/{id}}. The
 * probe of the measured pool (5,000 coupons, 10 % assigned) is timed alone, then again after a
 * neighbour campaign of {@code neighbour} coupons is seeded, 5 runs each after one warm-up.
 *
 * <p>Run: {@code ./mvnw -q -DskipTests test-compile exec:exec -Dexec.classpathScope=test
 * -Dexec.executable=java -Dexec.args="-cp %classpath flashclaim.bench.NeighbourCampaignCost"}
 */
public final class NeighbourCampaignCost {
  /** Coupons of the measured pool. */
  private static final int MEASURED = 5_000;

  private NeighbourCampaignCost() {}

  public static void main(String[] args) throws Exception {
    int neighbour = args.length > 0 ? Integer.parseInt(args[0]) : 30_000;
    Firestore db = TestEmulator.firestore();
    TestEmulator.reset();
    CollectionReference measured = db.collection("campaigns").document("measured").collection("coupons");
    ProbeQueryCost.seed(db, measured, MEASURED);
    time("alone", measured);
    ProbeQueryCost.seed(db, db.collection("campaigns").document("neighbour").collection("coupons"), neighbour);
    time("beside a neighbour of " + neighbour, measured);
    System.exit(0); // the emulator's shutdown hook stops it
  }

  /** The measured pool's probe, from one random point for all its runs. */
  private static void time(String name, CollectionReference coupons) throws Exception {
    Query probe = ProbeQueryCost.probe(coupons.whereEqualTo("isAssigned", false)).limit(200);
    ProbeQueryCost.time(MEASURED, "measured pool " + name, () -> probe);
  }
}
