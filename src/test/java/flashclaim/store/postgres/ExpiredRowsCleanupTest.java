package flashclaim.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.PostgresBackend;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.TestPostgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The periodic deletion of expired guard and idempotency rows on PostgreSQL: bounded batches,
 * several instances at once without overlap or waiting, live rows untouched.
 */
class ExpiredRowsCleanupTest {
  private static final int BATCH = 7;
  private static final int MAX_BATCHES = 3;
  private static final int EXPIRED = 100;
  private static final int LIVE = 30;

  private final StoreBackend backend = new PostgresBackend();

  private ServiceInstance start(Duration interval) {
    Map<String, Object> properties = new HashMap<>(backend.properties());
    properties.put("flashclaim.postgres.cleanup-interval", interval.toMillis() + "ms");
    properties.put("flashclaim.postgres.cleanup-batch-size", BATCH);
    properties.put("flashclaim.postgres.cleanup-max-batches", MAX_BATCHES);
    return ServiceInstance.start(properties);
  }

  /**
   * Two instances run one cleanup each at the same moment: each deletes exactly its limit of
   * batches per table ({@value #MAX_BATCHES} of {@value #BATCH}), none deletes a row the other did,
   * and no live row goes.
   */
  @Test
  void instancesCleaningAtOnceDeleteDisjointBoundedBatchesAndLeaveLiveRows() throws Exception {
    try (ServiceInstance a = start(Duration.ofHours(1));
        ServiceInstance b = start(Duration.ofHours(1))) {
      TestPostgres.reset();
      insertRows();
      CountDownLatch go = new CountDownLatch(1);
      List<CompletableFuture<Map<String, Integer>>> runs =
          List.of(a, b).stream()
              .map(instance -> instance.context().getBean(ExpiredRowsCleanup.class))
              .map(
                  cleanup ->
                      CompletableFuture.supplyAsync(
                          () -> {
                            awaitQuietly(go);
                            return cleanup.run();
                          }))
              .toList();
      go.countDown();
      int limit = BATCH * MAX_BATCHES;
      for (CompletableFuture<Map<String, Integer>> run : runs) {
        assertThat(run.get(60, TimeUnit.SECONDS))
            .isEqualTo(Map.of("guards", limit, "idempotency", limit));
      }
      for (String table : ExpiredRowsCleanup.TABLES) {
        assertThat(count(table, true)).as(table).isEqualTo(EXPIRED - 2 * limit);
        assertThat(count(table, false)).as(table).isEqualTo(LIVE);
      }
    }
  }

  /** Left to the schedule, two instances delete every expired row soon, and only those. */
  @Test
  void theScheduledCleanupDeletesEveryExpiredRowAndOnlyThose() throws Exception {
    try (ServiceInstance a = start(Duration.ofMillis(200));
        ServiceInstance b = start(Duration.ofMillis(200))) {
      TestPostgres.reset();
      insertRows();
      long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while ((count("guards", true) > 0 || count("idempotency", true) > 0)
          && System.nanoTime() < giveUp) {
        Thread.sleep(100);
      }
      for (String table : ExpiredRowsCleanup.TABLES) {
        assertThat(count(table, true)).as(table).isZero();
        assertThat(count(table, false)).as(table).isEqualTo(LIVE);
      }
    }
  }

  /** {@value #EXPIRED} expired and {@value #LIVE} live rows in each table. */
  private static void insertRows() throws SQLException {
    Instant now = Instant.now();
    OffsetDateTime expired = OffsetDateTime.ofInstant(now.minusSeconds(3_600), ZoneOffset.UTC);
    OffsetDateTime live = OffsetDateTime.ofInstant(now.plusSeconds(3_600), ZoneOffset.UTC);
    try (Connection connection = TestPostgres.connect();
        PreparedStatement guard =
            connection.prepareStatement(
                "INSERT INTO guards (lock_id, expires_at, version)"
                    + " VALUES (?, ?, clock_timestamp())");
        PreparedStatement record =
            connection.prepareStatement(
                "INSERT INTO idempotency (record_id, fingerprint, expires_at, version)"
                    + " VALUES (?, 'f', ?, clock_timestamp())")) {
      for (int i = 0; i < EXPIRED + LIVE; i++) {
        OffsetDateTime expiresAt = i < EXPIRED ? expired : live;
        for (PreparedStatement insert : List.of(guard, record)) {
          insert.setString(1, "row-" + i);
          insert.setObject(2, expiresAt);
          insert.addBatch();
        }
      }
      guard.executeBatch();
      record.executeBatch();
    }
  }

  /** Rows of the table that have expired (or not), by the test's clock. */
  private static int count(String table, boolean expired) throws SQLException {
    try (Connection connection = TestPostgres.connect();
        PreparedStatement select =
            connection.prepareStatement(
                "SELECT count(*) FROM " + table + " WHERE (expires_at < ?) = ?")) {
      select.setObject(1, OffsetDateTime.ofInstant(Instant.now(), ZoneOffset.UTC));
      select.setBoolean(2, expired);
      try (ResultSet row = select.executeQuery()) {
        row.next();
        return row.getInt(1);
      }
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
