package flashclaim.store.firestore;

import com.google.cloud.firestore.Firestore;
import flashclaim.claim.ClaimStore;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.exceptions.ConfigurationException;
import io.micronaut.context.env.Environment;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Picks the Firestore claim strategy named by {@code flashclaim.firestore.claim.strategy}: one of
 * the service's {@link #STRATEGIES}. An unknown name stops the service from starting.
 */
@Factory
@Requires(bean = Firestore.class)
public final class FirestoreClaimStoreFactory {
  private static final String PROBES = "flashclaim-probes";
  /** The service's strategies, the default first. */
  public static final List<String> STRATEGIES =
      List.of(OptimisticClaimStrategy.NAME, SeedRangeScanClaimStrategy.NAME);

  @Singleton
  ContentionCounters contentionCounters() {
    return new ContentionCounters();
  }

  /**
   * Where the optimistic strategy's background probes run: {@code
   * flashclaim.firestore.claim.probe-threads} daemon threads, stopped with the context.
   */
  @Singleton
  @Named(PROBES)
  @Bean(preDestroy = "shutdownNow")
  ExecutorService probes(FirestoreClaimConfig claim) {
    AtomicInteger n = new AtomicInteger();
    return Executors.newFixedThreadPool(
        Math.max(1, claim.probeThreads()),
        task -> {
          Thread thread = new Thread(task, "flashclaim-probe-" + n.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        });
  }

  /** Made at startup, so that an unknown strategy stops the service from starting. */
  @Context
  ClaimStore claimStore(
      Firestore db,
      FirestoreConfig firestore,
      FirestoreClaimConfig claim,
      Clock clock,
      ContentionCounters counters,
      @Named(PROBES) ExecutorService probes,
      Environment properties) {
    refuseMovedSettings(properties);
    ClaimDocuments docs = new ClaimDocuments(db, firestore.callTimeout());
    String strategy = claim.strategy();
    return switch (strategy) {
      case OptimisticClaimStrategy.NAME ->
          new OptimisticClaimStrategy(docs, claim, probes, clock, counters);
      case SeedRangeScanClaimStrategy.NAME -> new SeedRangeScanClaimStrategy(docs, clock, counters);
      default ->
          throw new IllegalArgumentException(
              "flashclaim.firestore.claim.strategy must be one of "
                  + STRATEGIES
                  + ", not '"
                  + strategy
                  + "'");
    };
  }

  /** The settings of this record that were once {@code flashclaim.claim.*}. */
  private static final List<String> MOVED =
      List.of(
          "strategy",
          "candidates",
          "refill-below",
          "probe-threads",
          "candidate-max-age",
          "candidate-pools");

  /**
   * Refuses to start on a setting under its former name, which would otherwise be ignored without a
   * word (a deployment that asked for the {@code seed} strategy would run another).
   */
  private static void refuseMovedSettings(Environment properties) {
    for (String name : MOVED) {
      if (properties.containsProperty("flashclaim.claim." + name)) {
        throw new ConfigurationException(
            "flashclaim.claim."
                + name
                + " is now flashclaim.firestore.claim."
                + name
                + ": rename the setting");
      }
    }
  }
}
