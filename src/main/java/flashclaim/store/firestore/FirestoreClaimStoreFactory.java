package flashclaim.store.firestore;

import com.google.cloud.firestore.Firestore;
import flashclaim.claim.ClaimConfig;
import flashclaim.claim.ClaimStore;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Picks the Firestore claim strategy named by {@code flashclaim.claim.strategy}: one of the
 * service's {@link #STRATEGIES}, or one {@link AddedStrategy} of the classpath (the benchmark's
 * baselines live with the benchmark). An unknown name stops the service from starting.
 */
@Factory
@Requires(bean = Firestore.class)
public final class FirestoreClaimStoreFactory {
  private static final String PROBES = "flashclaim-probes";
  /** The service's strategies, the default first. */
  public static final List<String> STRATEGIES =
      List.of(OptimisticClaimStrategy.NAME, SeedRangeScanClaimStrategy.NAME);

  /** A claim strategy from outside the service, chosen by its name like the service's own. */
  interface AddedStrategy {
    String name();

    FirestoreClaimStrategy create(ClaimDocuments docs, Clock clock, ContentionCounters counters);
  }

  @Singleton
  ContentionCounters contentionCounters() {
    return new ContentionCounters();
  }

  /**
   * Where the optimistic strategy's background probes run: {@code flashclaim.claim.probe-threads}
   * daemon threads, stopped with the context.
   */
  @Singleton
  @Named(PROBES)
  @Bean(preDestroy = "shutdownNow")
  ExecutorService probes(ClaimConfig claim) {
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
      ClaimConfig claim,
      Clock clock,
      ContentionCounters counters,
      @Named(PROBES) ExecutorService probes,
      List<AddedStrategy> added) {
    ClaimDocuments docs = new ClaimDocuments(db, firestore.callTimeout());
    String strategy = claim.strategy();
    return switch (strategy) {
      case OptimisticClaimStrategy.NAME ->
          new OptimisticClaimStrategy(docs, claim, probes, clock, counters);
      case SeedRangeScanClaimStrategy.NAME -> new SeedRangeScanClaimStrategy(docs, clock, counters);
      default ->
          added.stream()
              .filter(a -> a.name().equals(strategy))
              .findFirst()
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "flashclaim.claim.strategy must be one of "
                              + Stream.concat(
                                      STRATEGIES.stream(), added.stream().map(AddedStrategy::name))
                                  .toList()
                              + ", not '"
                              + strategy
                              + "'"))
              .create(docs, clock, counters);
    };
  }
}
