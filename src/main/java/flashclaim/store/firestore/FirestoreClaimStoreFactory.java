package flashclaim.store.firestore;

import com.google.cloud.firestore.Firestore;
import flashclaim.claim.ClaimConfig;
import flashclaim.claim.ClaimStore;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.List;

/** Picks the Firestore claim strategy named by {@code flashclaim.claim.strategy}. */
@Factory
@Requires(bean = Firestore.class)
public final class FirestoreClaimStoreFactory {
  /** Every strategy name, the default first. */
  public static final List<String> STRATEGIES =
      List.of(
          OptimisticClaimStrategy.NAME,
          SeedRangeScanClaimStrategy.NAME,
          OldestFirstClaimStrategy.NAME);

  @Singleton
  ContentionCounters contentionCounters() {
    return new ContentionCounters();
  }

  @Singleton
  ClaimStore claimStore(
      Firestore db,
      FirestoreConfig firestore,
      ClaimConfig claim,
      Clock clock,
      ContentionCounters counters) {
    return create(claim.strategy(), db, firestore.callTimeout(), claim, clock, counters);
  }

  /** A claim strategy by name, for the service and for the benchmark that compares them. */
  public static ClaimStore create(
      String strategy,
      Firestore db,
      java.time.Duration callTimeout,
      ClaimConfig claim,
      Clock clock,
      ContentionCounters counters) {
    ClaimDocuments docs = new ClaimDocuments(db, callTimeout);
    return switch (strategy) {
      case OptimisticClaimStrategy.NAME ->
          new OptimisticClaimStrategy(
              docs, claim.candidates(), claim.candidateMaxAge(), clock, counters);
      case SeedRangeScanClaimStrategy.NAME -> new SeedRangeScanClaimStrategy(docs, clock, counters);
      case OldestFirstClaimStrategy.NAME -> new OldestFirstClaimStrategy(docs, clock, counters);
      default ->
          throw new IllegalArgumentException(
              "flashclaim.claim.strategy must be one of " + STRATEGIES + ", not '" + strategy + "'");
    };
  }
}
