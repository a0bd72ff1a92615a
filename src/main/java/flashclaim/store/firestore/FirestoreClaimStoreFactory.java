package flashclaim.store.firestore;

import com.google.cloud.firestore.Firestore;
import flashclaim.claim.ClaimConfig;
import flashclaim.claim.ClaimStore;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/** Picks the Firestore claim strategy named by {@code flashclaim.claim.strategy}. */
@Factory
@Requires(bean = Firestore.class)
public final class FirestoreClaimStoreFactory {
  private static final String PROBES = "flashclaim-probes";
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

  /** Where the optimistic strategy's background probes run; stopped with the context. */
  @Singleton
  @Named(PROBES)
  @Bean(preDestroy = "shutdownNow")
  ExecutorService probes(ClaimConfig claim) {
    return probeExecutor(claim);
  }

  @Singleton
  ClaimStore claimStore(
      Firestore db,
      FirestoreConfig firestore,
      ClaimConfig claim,
      Clock clock,
      ContentionCounters counters,
      @Named(PROBES) ExecutorService probes) {
    return create(claim.strategy(), db, firestore.callTimeout(), claim, clock, counters, probes);
  }

  /** The executor of {@code flashclaim.claim.probe-threads} daemon threads for {@link #create}. */
  public static ExecutorService probeExecutor(ClaimConfig claim) {
    AtomicInteger n = new AtomicInteger();
    return Executors.newFixedThreadPool(
        Math.max(1, claim.probeThreads()),
        task -> {
          Thread thread = new Thread(task, "flashclaim-probe-" + n.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        });
  }

  /** A claim strategy by name, for the service and for the benchmark that compares them. */
  public static ClaimStore create(
      String strategy,
      Firestore db,
      java.time.Duration callTimeout,
      ClaimConfig claim,
      Clock clock,
      ContentionCounters counters,
      Executor probes) {
    ClaimDocuments docs = new ClaimDocuments(db, callTimeout);
    return switch (strategy) {
      case OptimisticClaimStrategy.NAME ->
          new OptimisticClaimStrategy(docs, claim, probes, clock, counters);
      case SeedRangeScanClaimStrategy.NAME -> new SeedRangeScanClaimStrategy(docs, clock, counters);
      case OldestFirstClaimStrategy.NAME -> new OldestFirstClaimStrategy(docs, clock, counters);
      default ->
          throw new IllegalArgumentException(
              "flashclaim.claim.strategy must be one of " + STRATEGIES + ", not '" + strategy + "'");
    };
  }
}
