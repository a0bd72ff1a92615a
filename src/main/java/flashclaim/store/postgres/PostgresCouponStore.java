package flashclaim.store.postgres;

import flashclaim.StoreException;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CouponCode;
import flashclaim.campaign.CouponStore;
import flashclaim.campaign.Stock;
import io.micronaut.context.annotation.Requires;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Seeding and stock, on PostgreSQL. Seeding inserts the codes as one array
 * parameter per statement ({@code flashclaim.postgres.seed-batch-size} codes, {@code
 * seed-parallelism} statements at a time), skipping codes that exist ({@code ON CONFLICT DO
 * NOTHING}); each batch commits on its own and logs its progress, so a repeated request adds what
 * an interrupted one did not. The same statement adds the number of
 * inserted codes to the campaign's {@code coupons_added}, so the count and the coupons become
 * visible at one commit (the sold-out fast path relies on it).
 */
@Singleton
@Requires(bean = PostgresCalls.class)
final class PostgresCouponStore implements CouponStore {
  private static final Logger LOG = LoggerFactory.getLogger(PostgresCouponStore.class);

  private final PostgresCalls db;
  private final PostgresConfig config;
  private final ExecutorService writers;

  PostgresCouponStore(PostgresCalls db, PostgresConfig config) {
    this.db = db;
    this.config = config;
    AtomicInteger threads = new AtomicInteger();
    this.writers =
        Executors.newFixedThreadPool(
            Math.max(1, config.seedParallelism()),
            r -> {
              Thread t = new Thread(r, "postgres-seeding-" + threads.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
  }

  @PreDestroy
  void close() {
    writers.shutdownNow();
  }

  /**
   * Writes the batches on up to {@code seed-parallelism} connections at once; each logs when it
   * has committed. A code given twice is written once, so no two batches of one call share a code.
   */
  @Override
  public AddResult add(CampaignId campaign, List<CouponCode> codes) {
    String[] values = codes.stream().map(CouponCode::value).distinct().toArray(String[]::new);
    int batch = Math.max(1, config.seedBatchSize());
    Progress progress = new Progress(campaign, values.length);
    List<Future<?>> batches = new ArrayList<>();
    for (int from = 0; from < values.length; from += batch) {
      String[] chunk = Arrays.copyOfRange(values, from, Math.min(values.length, from + batch));
      batches.add(
          writers.submit(
              () ->
                  progress.committed(
                      chunk.length, db.call("add coupons", c -> insert(c, campaign, chunk)))));
    }
    awaitAll(batches);
    long added = progress.added();
    return new AddResult(added, codes.size() - added);
  }

  /** The committed batches of one seeding call, counted and logged one at a time, in order. */
  private static final class Progress {
    private final CampaignId campaign;
    private final int total;
    private long written;
    private long added;

    Progress(CampaignId campaign, int total) {
      this.campaign = campaign;
      this.total = total;
    }

    synchronized void committed(int codes, long inserted) {
      written += codes;
      added += inserted;
      LOG.info(
          "Seeding campaign {}: {}/{} codes written, {} of them new",
          campaign.value(), written, total, added);
    }

    synchronized long added() {
      return added;
    }
  }

  /** Waits for every batch; the first failure is thrown once all have ended. */
  private static void awaitAll(List<Future<?>> batches) {
    RuntimeException failure = null;
    for (Future<?> batch : batches) {
      try {
        batch.get();
      } catch (ExecutionException e) {
        RuntimeException cause =
            e.getCause() instanceof RuntimeException r
                ? r
                : new StoreException("PostgreSQL could not add coupons", e.getCause());
        if (failure == null) {
          failure = cause;
        } else {
          failure.addSuppressed(cause);
        }
      } catch (InterruptedException e) {
        batches.forEach(b -> b.cancel(true));
        Thread.currentThread().interrupt();
        throw new StoreException("interrupted while adding coupons", e);
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  /**
   * Inserts the codes that are new and counts them into {@code coupons_added}, in one statement;
   * a batch that adds nothing leaves the campaign row untouched.
   */
  private static long insert(Connection connection, CampaignId campaign, String[] codes)
      throws SQLException {
    Array array = connection.createArrayOf("text", codes);
    try (PreparedStatement insert =
            PostgresCalls.prepare(
                connection,
                "WITH added AS ("
                    + "  INSERT INTO coupons (campaign_id, code)"
                    + "  SELECT ?, code FROM unnest(?::text[]) AS code"
                    + "  ON CONFLICT (campaign_id, code) DO NOTHING RETURNING 1),"
                    + " n AS (SELECT count(*) AS n FROM added),"
                    + " counted AS ("
                    + "  UPDATE campaigns SET coupons_added = coupons_added + n.n FROM n"
                    + "  WHERE id = ? AND n.n > 0 RETURNING 1)"
                    + " SELECT n FROM n",
                campaign.value(),
                array,
                campaign.value());
        ResultSet row = insert.executeQuery()) {
      row.next();
      return row.getLong(1);
    } finally {
      array.free();
    }
  }

  @Override
  public Stock stock(CampaignId campaign) {
    return db.call(
        "count coupons",
        connection -> {
          try (PreparedStatement count =
                  PostgresCalls.prepare(
                      connection,
                      "SELECT count(*), count(assigned_to) FROM coupons WHERE campaign_id = ?",
                      campaign.value());
              ResultSet row = count.executeQuery()) {
            row.next();
            return new Stock(row.getLong(1), row.getLong(2));
          }
        });
  }
}
