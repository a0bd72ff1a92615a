package flashclaim.store.postgres;

import flashclaim.Deadline;
import flashclaim.campaign.Campaign;
import flashclaim.campaign.CampaignId;
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
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Claims on PostgreSQL, each one attempt of the function {@code claim_coupons} (migrations V5, V7),
 * and the attempts that reach the instance together in one call of it: one round trip and one
 * commit for all of them ({@link Batcher}: at most {@code claim-calls} calls at once, each with up
 * to {@code claim-batch-size} attempts; an attempt that finds a call free goes at once). A call is
 * sent in autocommit together with its timeouts, so that the settings and the call are one
 * implicit transaction (G1, G5: a coupon's assignment and its claim record commit together or not
 * at all). For each attempt the function
 *
 * <ol>
 *   <li>tries {@code pg_advisory_xact_lock(campaign, user)} in its two-key form: it serializes the
 *       claims of one user in one campaign (held until commit), while different users run in
 *       parallel. A lock held by another claim in flight answers "busy", and the attempt is made
 *       again after a short pause, so one user's wait never holds up the other attempts of a call;
 *   <li>reads the user's claim rows once the lock is held, so no other claim of the user is in
 *       flight: a filled slot or a full limit answers {@link Attempt.SlotTaken} with those claims
 *       (G2, G4);
 *   <li>takes one row of the unassigned coupons' table {@code coupon_pool} with {@code FOR UPDATE
 *       SKIP LOCKED}, so concurrent claims of different users never wait on each other's coupon,
 *       deletes it, assigns the coupon in place (no index entry written) and inserts the claim row;
 *   <li>when the pick finds nothing, tells the cases apart (G3): if pool rows exist they are only
 *       locked by other claims in flight, which may still roll back, so the attempt is made again
 *       after a short pause; only when none exists at all is the pool sold out.
 * </ol>
 *
 * A call's {@code statement_timeout} is what is left of the earliest deadline among its attempts,
 * at most the call timeout, and its {@code lock_timeout} that, at most {@code
 * flashclaim.postgres.lock-timeout}; a connection that stops answering is closed at that deadline
 * plus {@code cancel-grace} ({@link PostgresCalls#prepareTimedByDatabase}). An attempt whose
 * deadline passed while it waited for a call is not sent. A call cut short by the earliest
 * deadline is made again for the attempts that still have time; an attempt whose deadline passed,
 * a pool that has no connection in time, or an attempt still busy or locked at the deadline
 * answers {@link Attempt.Contended} (G6). A caller whose attempt is in a call waits for the call's
 * result, so an answer never hides an assignment.
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
   * The timeouts and the claims in one statement text: pgjdbc sends both queries before a single
   * Sync, so they take one round trip and run in one implicit transaction, to which the settings
   * are local.
   */
  private static final String CLAIM =
      "SELECT set_config('statement_timeout', ?, true), set_config('lock_timeout', ?, true);"
          + " SELECT item, result, held_code, held_slot, held_at"
          + " FROM claim_coupons(?, ?, ?, ?, ?, ?, ?)";

  /** One claim attempt, as the batcher sends it. */
  private record Request(
      Campaign campaign, UserId user, int slot, int campaignKey, int userKey, Deadline deadline) {}

  /** What became of one attempt: its answer, or null when it is to be made again. */
  private record Answer(Attempt attempt) {
    static final Answer AGAIN = new Answer(null);
    static final Answer CONTENDED = new Answer(new Attempt.Contended());
  }

  private final PostgresCalls db;
  private final PostgresConfig config;
  private final Clock clock;

  private final Batcher<Request, Answer> batcher;
  private final ClaimCallCounters counters;

  PostgresClaimStore(
      PostgresCalls db, PostgresConfig config, Clock clock, ClaimCallCounters counters) {
    this.db = db;
    this.config = config;
    this.clock = clock;
    this.counters = counters;
    this.batcher = new Batcher<>(config.claimBatchSize(), config.claimCalls(), this::call);
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

  /**
   * None: the pool is read only by the statement of a claim, which ends within that claim's
   * deadline, and a claim that finds none left is answered sold out and proves it itself.
   */
  @Override
  public Instant foundEmptyFrom(CampaignId campaign) {
    return null;
  }

  /** False, for the same reason. */
  @Override
  public boolean runningOut(CampaignId campaign) {
    return false;
  }

  @Override
  public Attempt tryClaim(Campaign campaign, UserId user, int slot, Deadline deadline) {
    Request request =
        new Request(
            campaign, user, slot, lockKey(campaign.id().value()), lockKey(user.key()), deadline);
    for (int attempt = 0; ; attempt++) {
      if (!hasTime(deadline)) {
        return new Attempt.Contended();
      }
      try {
        Answer answer =
            batcher.send(
                request, () -> hasTime(deadline), () -> deadline.timeout(config.callTimeout()));
        if (answer == null) {
          return new Attempt.Contended(); // the deadline passed while it waited for a call
        }
        if (answer.attempt() != null) {
          return answer.attempt();
        }
        // The user's lock was held, or every unassigned coupon was locked, by claims in flight.
        backOff(attempt);
      } catch (SQLTransientConnectionException poolExhausted) {
        return new Attempt.Contended();
      } catch (SQLException e) {
        if (PostgresCalls.QUERY_CANCELED.equals(e.getSQLState())) {
          continue; // cut short by the call's earliest deadline: again, if this one has time left
        }
        if (!PostgresCalls.LOCK_NOT_AVAILABLE.equals(e.getSQLState())) {
          throw PostgresCalls.failed("claim a coupon", e);
        }
        // lock_timeout: a lock the call waited for was held too long; again until the deadline.
      } catch (RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** Whether an attempt may still start: at least {@link #LEAST_TIMEOUT} of its deadline is left. */
  private boolean hasTime(Deadline deadline) {
    return deadline.timeout(config.callTimeout()).compareTo(LEAST_TIMEOUT) >= 0;
  }

  /**
   * One call of {@code claim_coupons} for a batch of attempts; the attempts whose deadline has
   * passed are not sent.
   */
  private List<Answer> call(List<Request> requests) throws SQLException {
    Answer[] answers = new Answer[requests.size()];
    List<Integer> sent = new ArrayList<>(requests.size());
    Deadline earliest = null;
    for (int i = 0; i < requests.size(); i++) {
      Deadline deadline = requests.get(i).deadline();
      if (!hasTime(deadline)) {
        answers[i] = Answer.CONTENDED;
      } else {
        sent.add(i);
        if (earliest == null || deadline.instant().isBefore(earliest.instant())) {
          earliest = deadline;
        }
      }
    }
    if (earliest != null) {
      counters.sent(sent.size());
      Deadline callDeadline = earliest;
      db.connected(callDeadline, connection -> claim(connection, requests, sent, callDeadline, answers));
    }
    return Arrays.asList(answers);
  }

  /** Sends the attempts {@code sent} (indexes into {@code requests}) and fills in their answers. */
  private Void claim(
      Connection connection,
      List<Request> requests,
      List<Integer> sent,
      Deadline deadline,
      Answer[] answers)
      throws SQLException {
    int n = sent.size();
    String[] campaigns = new String[n];
    String[] users = new String[n];
    Integer[] slots = new Integer[n];
    Integer[] limits = new Integer[n];
    Integer[] campaignKeys = new Integer[n];
    Integer[] userKeys = new Integer[n];
    for (int k = 0; k < n; k++) {
      Request request = requests.get(sent.get(k));
      campaigns[k] = request.campaign().id().value();
      users[k] = request.user().key();
      slots[k] = request.slot();
      limits[k] = request.campaign().perUserLimit();
      campaignKeys[k] = request.campaignKey();
      userKeys[k] = request.userKey();
    }
    Duration left = deadline.timeout(config.callTimeout());
    Duration lockTimeout = left.compareTo(config.lockTimeout()) < 0 ? left : config.lockTimeout();
    Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS); // PostgreSQL keeps micros
    Map<Integer, List<Claim>> held = new HashMap<>(); // by index into sent
    try (PreparedStatement claim =
        db.prepareTimedByDatabase(
            connection,
            deadline,
            CLAIM,
            millis(left),
            millis(lockTimeout),
            connection.createArrayOf("text", campaigns),
            connection.createArrayOf("text", users),
            connection.createArrayOf("integer", slots),
            connection.createArrayOf("integer", limits),
            connection.createArrayOf("integer", campaignKeys),
            connection.createArrayOf("integer", userKeys),
            now)) {
      claim.execute(); // the settings' row
      if (!claim.getMoreResults()) {
        throw new SQLException("claim_coupons answered nothing");
      }
      try (ResultSet row = claim.getResultSet()) {
        while (row.next()) {
          int k = row.getInt("item") - 1;
          Request request = requests.get(sent.get(k));
          String result = row.getString("result");
          Answer answer =
              switch (result) {
                case "won" ->
                    new Answer(
                        new Attempt.Won(
                            new Claim(
                                request.campaign().id(),
                                new CouponCode(row.getString("held_code")),
                                request.slot(),
                                now)));
                case "busy", "locked" -> Answer.AGAIN;
                case "none_left" -> new Answer(new Attempt.NoneLeft());
                case "held" -> {
                  held.computeIfAbsent(k, first -> new ArrayList<>())
                      .add(held(request.campaign(), row));
                  yield null;
                }
                default -> throw new SQLException("claim_coupons answered " + result);
              };
          if (answer != null) {
            answers[sent.get(k)] = answer;
          }
        }
      }
    }
    for (int k = 0; k < n; k++) {
      if (held.containsKey(k)) {
        answers[sent.get(k)] = new Answer(new Attempt.SlotTaken(List.copyOf(held.get(k))));
      } else if (answers[sent.get(k)] == null) {
        throw new SQLException("claim_coupons answered nothing for attempt " + (k + 1));
      }
    }
    return null;
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
