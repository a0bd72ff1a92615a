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
 * A claim on PostgreSQL in one round trip: one call of the function {@code claim_coupon}
 * (migration V4), sent in autocommit together with its timeouts, so that the settings and the call
 * are one implicit transaction (G1, G5: the coupon's assignment and the claim record commit
 * together or not at all). The function
 *
 * <ol>
 *   <li>takes {@code pg_advisory_xact_lock(campaign, user)} in its two-key form: it serializes the
 *       claims of one user in one campaign (held until commit), while different users run in
 *       parallel;
 *   <li>reads the user's claim rows once the lock is held, so no other claim of the user is in
 *       flight: a filled slot or a full limit answers {@link Attempt.SlotTaken} with those claims
 *       (G2, G4);
 *   <li>picks one unassigned coupon with {@code FOR UPDATE SKIP LOCKED}, so concurrent claims of
 *       different users never wait on each other's coupon, assigns it and inserts the claim row;
 *   <li>when the pick finds nothing, tells the cases apart (G3): if unassigned coupons exist they
 *       are only locked by other claims in flight, which may still roll back, so the attempt is
 *       repeated after a short pause; only when none exists at all is the pool sold out.
 * </ol>
 *
 * The call's {@code statement_timeout} is what is left of the deadline, at most the call timeout,
 * and its {@code lock_timeout} that, at most {@code flashclaim.postgres.lock-timeout}; a
 * connection that stops answering is closed at the deadline plus {@code cancel-grace} ({@link
 * PostgresCalls#prepareTimedByDatabase}). A lock wait that hits {@code lock_timeout}, a pool that
 * has no connection in time, a call the deadline cut short or a repeat past the deadline answers
 * {@link Attempt.Contended} (G6).
 *
 * <p>Key collisions are harmless: two users whose hashes collide (or two campaigns) only share a
 * lock, so their claims run one after the other; correctness rests on the row checks under the
 * lock and on the claims' primary key, never on the lock key being unique.
 */
@Singleton
@Requires(bean = PostgresCalls.class)
final class PostgresClaimStore implements ClaimStore {
  /** Less time than this left: no attempt starts. */
  private static final Duration LEAST_TIMEOUT = Duration.ofMillis(1);

  /**
   * The timeouts and the claim in one statement text: pgjdbc sends both queries before a single
   * Sync, so they take one round trip and run in one implicit transaction, to which the settings
   * are local.
   */
  private static final String CLAIM =
      "SELECT set_config('statement_timeout', ?, true), set_config('lock_timeout', ?, true);"
          + " SELECT result, held_code, held_slot, held_at"
          + " FROM claim_coupon(?, ?, ?, ?, ?, ?, ?)";

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
        deadline,
        connection -> {
          try (PreparedStatement select =
                  db.prepare(
                      connection,
                      deadline,
                      "SELECT code AS held_code, slot AS held_slot, claimed_at AS held_at"
                          + " FROM claims WHERE campaign_id = ? AND user_key = ? ORDER BY slot",
                      campaign.id().value(),
                      user.key());
              ResultSet row = select.executeQuery()) {
            List<Claim> claims = new ArrayList<>();
            while (row.next()) {
              claims.add(held(campaign, row));
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
            db.connected(
                deadline,
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
          return new Attempt.Contended(); // the deadline cut the call short
        }
        if (!PostgresCalls.LOCK_NOT_AVAILABLE.equals(e.getSQLState())) {
          throw PostgresCalls.failed("claim a coupon", e);
        }
        // lock_timeout: another claim of this user holds the lock; try again until the deadline.
      }
    }
  }

  /** One call of {@code claim_coupon}; null when only coupons locked by others were left. */
  private Attempt attempt(
      Connection connection,
      Campaign campaign,
      UserId user,
      int slot,
      int campaignKey,
      int userKey,
      Deadline deadline)
      throws SQLException {
    Duration left = deadline.timeout(config.callTimeout());
    Duration lockTimeout = left.compareTo(config.lockTimeout()) < 0 ? left : config.lockTimeout();
    Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS); // PostgreSQL keeps micros
    try (PreparedStatement claim =
        db.prepareTimedByDatabase(
            connection,
            deadline,
            CLAIM,
            millis(left),
            millis(lockTimeout),
            campaign.id().value(),
            user.key(),
            slot,
            campaign.perUserLimit(),
            now,
            campaignKey,
            userKey)) {
      claim.execute(); // the settings' row
      if (!claim.getMoreResults()) {
        throw new SQLException("claim_coupon answered nothing");
      }
      try (ResultSet row = claim.getResultSet()) {
        List<Claim> held = new ArrayList<>();
        while (row.next()) {
          String result = row.getString("result");
          switch (result) {
            case "won" -> {
              CouponCode code = new CouponCode(row.getString("held_code"));
              return new Attempt.Won(new Claim(campaign.id(), code, slot, now));
            }
            case "locked" -> {
              return null;
            }
            case "none_left" -> {
              return new Attempt.NoneLeft();
            }
            case "held" -> held.add(held(campaign, row));
            default -> throw new SQLException("claim_coupon answered " + result);
          }
        }
        return new Attempt.SlotTaken(List.copyOf(held));
      }
    }
  }

  /** A claim read as {@code held_code, held_slot, held_at}. */
  private static Claim held(Campaign campaign, ResultSet row) throws SQLException {
    return new Claim(
        campaign.id(),
        new CouponCode(row.getString("held_code")),
        row.getInt("held_slot"),
        PostgresCalls.instant(row, "held_at"));
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
