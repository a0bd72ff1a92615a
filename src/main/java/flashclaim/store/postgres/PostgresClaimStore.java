package flashclaim.store.postgres;

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

/**
 * A claim on PostgreSQL, one transaction per attempt:
 *
 * <ol>
 *   <li>{@code lock_timeout} for this transaction: what is left of the deadline, at most {@code
 *       flashclaim.postgres.lock-timeout};
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
 * {@link Attempt.Contended}.
 *
 * <p>Key collisions are harmless: two users whose hashes collide (or two campaigns) only share a
 * lock, so their claims run one after the other; correctness rests on the row checks under the
 * lock and on the claims' primary key, never on the lock key being unique.
 */
@Singleton
@Requires(bean = PostgresCalls.class)
final class PostgresClaimStore implements ClaimStore {
  private static final Duration LEAST_LOCK_TIMEOUT = Duration.ofMillis(1);

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
  public List<Claim> holdings(Campaign campaign, UserId user) {
    return db.call(
        "read the user's claims",
        connection -> {
          try (PreparedStatement select =
                  PostgresCalls.prepare(
                      connection,
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
  public Attempt tryClaim(Campaign campaign, UserId user, int slot, Instant deadline) {
    int campaignKey = lockKey(campaign.id().value());
    int userKey = lockKey(user.key());
    for (int attempt = 0; ; attempt++) {
      Duration left = Duration.between(clock.instant(), deadline);
      if (left.compareTo(LEAST_LOCK_TIMEOUT) < 0) {
        return new Attempt.Contended();
      }
      Duration lockTimeout = left.compareTo(config.lockTimeout()) < 0 ? left : config.lockTimeout();
      try {
        Attempt result =
            db.transaction(
                connection ->
                    attempt(connection, campaign, user, slot, campaignKey, userKey, lockTimeout));
        if (result != null) {
          return result;
        }
        // Every unassigned coupon was locked by claims in flight: not sold out, look again.
        backOff(attempt);
      } catch (SQLTransientConnectionException poolExhausted) {
        return new Attempt.Contended();
      } catch (SQLException e) {
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
      Duration lockTimeout)
      throws SQLException {
    String campaignId = campaign.id().value();
    execute(
        connection,
        "SELECT set_config('lock_timeout', ?, true)",
        Math.max(1, lockTimeout.toMillis()) + "ms");
    execute(connection, "SELECT pg_advisory_xact_lock(?, ?)", campaignKey, userKey);
    try (PreparedStatement held =
            PostgresCalls.prepare(
                connection,
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
            PostgresCalls.prepare(
                connection,
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
    try (PreparedStatement left =
            PostgresCalls.prepare(
                connection,
                "SELECT EXISTS (SELECT 1 FROM coupons WHERE campaign_id = ? AND assigned_to IS NULL)",
                campaignId);
        ResultSet row = left.executeQuery()) {
      row.next();
      return row.getBoolean(1) ? null : new Attempt.NoneLeft();
    }
  }

  private static void execute(Connection connection, String sql, Object... parameters)
      throws SQLException {
    try (PreparedStatement statement = PostgresCalls.prepare(connection, sql, parameters);
        ResultSet ignored = statement.executeQuery()) {
      // the result is nothing but void
    }
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
