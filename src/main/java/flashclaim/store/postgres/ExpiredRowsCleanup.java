package flashclaim.store.postgres;

import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.exceptions.ConfigurationException;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.TaskScheduler;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Named;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes expired rows of {@code guards} and {@code idempotency}, which the guard and idempotency
 * rules already treat as absent: every {@code flashclaim.postgres.cleanup-interval}, on every
 * instance, in statements of at most {@code cleanup-batch-size} rows and at most {@code
 * cleanup-max-batches} statements per table and run.
 *
 * <p>Each batch locks the rows it deletes with {@code FOR UPDATE SKIP LOCKED}, so instances that
 * clean at the same time take different rows and never wait for each other, and a row that a
 * request is updating right then is left for the next run. Expiry is judged by the instance's
 * clock, as the guard and idempotency rules judge it: removing an expired row is what their
 * takeover of a stale row does anyway.
 */
@Context
@Requires(bean = PostgresCalls.class)
final class ExpiredRowsCleanup {
  private static final Logger LOG = LoggerFactory.getLogger(ExpiredRowsCleanup.class);
  /** The tables whose rows expire, each with an {@code expires_at} column. */
  static final List<String> TABLES = List.of("guards", "idempotency");

  private final PostgresCalls db;
  private final PostgresConfig config;
  private final Clock clock;
  private final TaskScheduler scheduler;
  private ScheduledFuture<?> schedule;

  ExpiredRowsCleanup(
      PostgresCalls db,
      PostgresConfig config,
      Clock clock,
      @Named(TaskExecutors.SCHEDULED) TaskScheduler scheduler) {
    if (config.cleanupInterval().isNegative() || config.cleanupInterval().isZero()) {
      throw new ConfigurationException("flashclaim.postgres.cleanup-interval must be positive");
    }
    if (config.cleanupBatchSize() < 1 || config.cleanupMaxBatches() < 1) {
      throw new ConfigurationException(
          "flashclaim.postgres.cleanup-batch-size and cleanup-max-batches must be at least 1");
    }
    this.db = db;
    this.config = config;
    this.clock = clock;
    this.scheduler = scheduler;
  }

  @PostConstruct
  void start() {
    schedule =
        scheduler.scheduleWithFixedDelay(
            config.cleanupInterval(), config.cleanupInterval(), this::runLogged);
  }

  @PreDestroy
  void stop() {
    if (schedule != null) {
      schedule.cancel(false);
    }
  }

  /**
   * One cleanup: per table, batches until one deletes fewer rows than a full batch, or the run's
   * limit of batches is reached.
   *
   * @return the rows deleted, per table
   * @throws flashclaim.StoreException when the database fails; what was deleted stays deleted
   */
  Map<String, Integer> run() {
    Instant now = clock.instant();
    Map<String, Integer> deleted = new LinkedHashMap<>();
    for (String table : TABLES) {
      int total = 0;
      for (int batch = 0; batch < config.cleanupMaxBatches(); batch++) {
        int rows = deleteBatch(table, now);
        total += rows;
        if (rows < config.cleanupBatchSize()) {
          break;
        }
      }
      deleted.put(table, total);
    }
    return deleted;
  }

  private int deleteBatch(String table, Instant expiredBefore) {
    String sql =
        "DELETE FROM " + table + " WHERE ctid = ANY (ARRAY("
            + "SELECT ctid FROM " + table + " WHERE expires_at < ?"
            + " LIMIT ? FOR UPDATE SKIP LOCKED))";
    return db.update("delete expired " + table, sql, expiredBefore, config.cleanupBatchSize());
  }

  private void runLogged() {
    try {
      Map<String, Integer> deleted = run();
      if (deleted.values().stream().anyMatch(n -> n > 0)) {
        LOG.info("deleted expired rows: {}", deleted);
      }
    } catch (RuntimeException e) { // a StoreException, or the pool closing at shutdown
      LOG.warn(
          "cleanup of expired rows failed, next try in {}: {}",
          config.cleanupInterval(),
          e.getMessage());
    }
  }
}
