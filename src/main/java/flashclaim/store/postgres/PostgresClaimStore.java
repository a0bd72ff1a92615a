package flashclaim.store.postgres;

import flashclaim.Deadline;
import flashclaim.campaign.Campaign;
import flashclaim.campaign.CouponCode;
import flashclaim.claim.Claim;
import flashclaim.claim.ClaimStore;
import flashclaim.claim.UserId;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * A claim on PostgreSQL, one transaction per attempt:
 *
 * <ol>
 *   <li>{@code statement_timeout} for this transaction: what is left of the deadline, at most the
 *       call timeout; {@code lock_timeout}: that, at most {@code flashclaim.postgres.lock-timeout};
 *   <li>{@code pg_advisory_xact_lock(campaign, user)} in its two-key form: it serializes the claims
 *       of one user in one campaign (held until commit), while different users run in parallel;
 *   <li>the user's claim rows, read after the lock is held, so no other claim of the user is in
 *       flight: a filled slot or a full limit answers {@link Attempt.SlotTaken} (G2);
 *   <li>one unassigned coupon picked with {@code FOR UPDATE SKIP LOCKED}, so concurrent claims of
 *       different users never wait on each other's coupon; assigned, and the claim row inserted,
 *       in one statement;
 *   <li>commit (G1, G5: both rows or neither).
 * </ol>
 *
 * When the pick finds nothing, a second look tells the cases apart (G3): if unassigned coupons
 * exist they are only locked by other claims in flight, which may still roll back, so the attempt
 * is retried; only when none exists at all is the pool sold out. A lock wait that hits {@code
 * lock_timeout}, a pool that has no connection in time or a retry past the deadline answers
 * {@link Attempt.Contended}. Each statement also waits at most what is left of the deadline ({@link
 * PostgresCalls#prepare(Connection, Deadline, String, Object...)}): one cut short, or one that
 * would start after the deadline, rolls the transaction back and answers Contended too.
 *
 * <p>Key collisions are harmless: two users whose hashes collide (or two campaigns) only share a
 * lock, so their claims run one after the other; correctness rests on the row checks under the
 * lock and on the claims' primary key, never on the lock key being unique.
 */
@Singleton
@Requires(bean = PostgresCalls.class)
final class PostgresClaimStore implements ClaimStore {
  /** Less time than this left: no transaction starts. */
  private static final Duration LEAST_TIMEOUT = Duration.ofMillis(1);

  private static final String CLAIM =
      "WITH picked AS ("
          + " UPDATE coupons SET assigned_to = ?, claim_slot = ?, assigned_at = ?"
          + " WHERE campaign_id = ? AND code = ("
          + "   SELECT code FROM coupons WHERE campaign_id = ? AND assigned_to IS NULL"
          + "   ORDER BY pick_order LIMIT 1 FOR UPDATE SKIP LOCKED)"
          + " RETURNING campaign_id, code)"
          + " INSERT INTO claims (campaign_id, user_key, slot, code, claimed_at)"
          + " SELECT campaign_id, ?, ?, code, ? FROM picked RETURNING code";

  private final PostgresCalls db;
  private final PostgresConfig config;
  private final Clock clock;

  PostgresClaimStore(PostgresCalls db, PostgresConfig config, Clock clock) {
    this.db = db;
    this.config = config;
    this.clock = clock;
  }

  @Override
  public List<Claim> holdings(Campaign campaign, UserId user, Deadline deadline) {
    return db.call(
        "read the user's claims",
        connection -> {
          try (PreparedStatement select =
                  db.prepare(
                      connection,
                      deadline,
                      "SELECT slot, code, claimed_at FROM claims"
                          + " WHERE campaign_id = ? AND user_key = ? ORDER BY slot",
                      campaign.id().value(),
                      user.key());
              ResultSet row = select.executeQuery()) {
            List<Claim> claims = new ArrayList<>();
            while (row.next()) {
              claims.add(
                  new Claim(
                      campaign.id(),
                      new CouponCode(row.getString("code")),
                      row.getInt("slot"),
                      PostgresCalls.instant(row, "claimed_at")));
            }
            return claims;
          }
        });
  }

  @Override
  public boolean forEachHolder(
      Campaign campaign, int pageSize, int max, Consumer<String> userKey) {
    return db.inTransaction(
        "read the campaign's holders",
        connection -> {
          try (PreparedStatement select =
              PostgresCalls.prepare(
                  connection,
                  "SELECT user_key FROM claims WHERE campaign_id = ?",
                  campaign.id().value())) {
            select.setFetchSize(pageSize); // a cursor: pages, not the whole result in memory
            try (ResultSet row = select.executeQuery()) {
              int seen = 0;
              while (row.next()) {
                if (++seen > max) {
                  return false;
                }
                userKey.accept(row.getString(1));
              }
              return true;
            }
          }
        });
  }

  @Override
  public Attempt tryClaim(Campaign campaign, UserId user, int slot, Deadline deadline) {
    int campaignKey = lockKey(campaign.id().value());
    int userKey = lockKey(user.key());
    for (int attempt = 0; ; attempt++) {
      Duration left = deadline.timeout(config.callTimeout());
      if (left.compareTo(LEAST_TIMEOUT) < 0) {
        return new Attempt.Contended();
      }
      try {
        Attempt result =
            db.transaction(
                connection ->
                    attempt(connection, campaign, user, slot, campaignKey, userKey, deadline));
        if (result != null) {
          return result;
        }
        // Every unassigned coupon was locked by claims in flight: not sold out, look again.
        backOff(attempt);
      } catch (SQLTransientConnectionException poolExhausted) {
        return new Attempt.Contended();
      } catch (SQLException e) {
        if (PostgresCalls.QUERY_CANCELED.equals(e.getSQLState()) && deadline.passed()) {
          return new Attempt.Contended(); // the deadline cut the transaction short
        }
        if (!PostgresCalls.LOCK_NOT_AVAILABLE.equals(e.getSQLState())) {
          throw PostgresCalls.failed("claim a coupon", e);
        }
        // lock_timeout: another claim of this user holds the lock; try again until the deadline.
      }
    }
  }

  /** One claim transaction; null when only coupons locked by others were left. */
  private Attempt attempt(
      Connection connection,
      Campaign campaign,
      UserId user,
      int slot,
      int campaignKey,
      int userKey,
      Deadline deadline)
      throws SQLException {
    String campaignId = campaign.id().value();
    Duration left = deadline.timeout(config.callTimeout());
    Duration lockTimeout = left.compareTo(config.lockTimeout()) < 0 ? left : config.lockTimeout();
    execute(
        connection,
        deadline,
        "SELECT set_config('statement_timeout', ?, true), set_config('lock_timeout', ?, true)",
        millis(left),
        millis(lockTimeout));
    execute(connection, deadline, "SELECT pg_advisory_xact_lock(?, ?)", campaignKey, userKey);
    try (PreparedStatement held =
            db.prepare(
                connection,
                deadline,
                "SELECT count(*), count(*) FILTER (WHERE slot = ?) FROM claims"
                    + " WHERE campaign_id = ? AND user_key = ?",
                slot,
                campaignId,
                user.key());
        ResultSet row = held.executeQuery()) {
      row.next();
      if (row.getInt(1) >= campaign.perUserLimit() || row.getInt(2) > 0) {
        return new Attempt.SlotTaken();
      }
    }
    Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS); // PostgreSQL keeps micros
    try (PreparedStatement claim =
            db.prepare(
                connection,
                deadline,
                CLAIM,
                user.key(),
                slot,
                now,
                campaignId,
                campaignId,
                user.key(),
                slot,
                now);
        ResultSet row = claim.executeQuery()) {
      if (row.next()) {
        return new Attempt.Won(new Claim(campaign.id(), new CouponCode(row.getString(1)), slot, now));
      }
    }
    try (PreparedStatement free =
            db.prepare(
                connection,
                deadline,
                "SELECT EXISTS (SELECT 1 FROM coupons WHERE campaign_id = ? AND assigned_to IS NULL)",
                campaignId);
        ResultSet row = free.executeQuery()) {
      row.next();
      return row.getBoolean(1) ? null : new Attempt.NoneLeft();
    }
  }

  private void execute(Connection connection, Deadline deadline, String sql, Object... parameters)
      throws SQLException {
    try (PreparedStatement statement = db.prepare(connection, deadline, sql, parameters);
        ResultSet ignored = statement.executeQuery()) {
      // the result is nothing but void
    }
  }

  /** A timeout as a PostgreSQL setting; at least 1 ms, since 0 would mean none. */
  private static String millis(Duration timeout) {
    return Math.max(1, timeout.toMillis()) + "ms";
  }

  /** A short pause with jitter before looking at a pool whose free coupons are all in flight. */
  private static void backOff(int attempt) {
    long micros = ThreadLocalRandom.current().nextLong(200, 1_000L << Math.min(attempt, 4));
    LockSupport.parkNanos(micros * 1_000);
  }

  /** A 32-bit advisory lock key: the first four bytes of the SHA-256 of {@code text}. */
  static int lockKey(String text) {
    byte[] hash = flashclaim.Sha256.digest().digest(text.getBytes(StandardCharsets.UTF_8));
    return (hash[0] & 0xff) << 24 | (hash[1] & 0xff) << 16 | (hash[2] & 0xff) << 8 | hash[3] & 0xff;
  }
}
