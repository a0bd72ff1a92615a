package flashclaim.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.Deadline;
import flashclaim.campaign.Campaign;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CampaignService;
import flashclaim.claim.Claim;
import flashclaim.claim.ClaimConfig;
import flashclaim.claim.ClaimOutcome;
import flashclaim.claim.ClaimService;
import flashclaim.claim.ClaimStore;
import flashclaim.claim.UserId;
import flashclaim.testing.Api;
import flashclaim.testing.PostgresBackend;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.TestPostgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The PostgreSQL claim transaction's two waits, held open deterministically by a transaction of
 * the test itself: coupons locked by claims in flight are not "sold out" (G3), and a claim that
 * waits for its user's advisory lock gives up at its deadline (G6); and a claim whose campaign read
 * waits answers Busy at its deadline too.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresClaimStoreTest {
  private static final Duration DEADLINE = Duration.ofMillis(700);
  private static final Clock CLOCK = Clock.systemUTC();
  private static final int POOL = 2;

  private final StoreBackend backend = new PostgresBackend();
  private ServiceInstance instance;
  private ClaimStore store;
  private int campaigns;

  @BeforeAll
  void start() {
    instance = ServiceInstance.start(backend.properties());
    store = instance.context().getBean(ClaimStore.class);
  }

  @AfterAll
  void stop() {
    instance.close();
  }

  private Campaign newCampaign(int coupons) {
    backend.reset();
    String id = "pg-claim-store-" + (++campaigns);
    Api.createCampaign(instance.url(), id, 1, coupons);
    return instance.context().getBean(CampaignService.class).find(new CampaignId(id)).orElseThrow();
  }

  /** Every unassigned coupon locked by another transaction: busy until it ends, never sold out. */
  @Test
  void couponsLockedByClaimsInFlightAreNotSoldOut() throws Exception {
    Campaign campaign = newCampaign(2);
    try (Connection inFlight = TestPostgres.connect()) {
      inFlight.setAutoCommit(false);
      try (PreparedStatement lock =
              inFlight.prepareStatement(
                  "SELECT code FROM coupons WHERE campaign_id = ? FOR UPDATE");
          ResultSet ignored = executeQuery(lock, campaign.id().value())) {
        Instant started = Instant.now();
        ClaimStore.Attempt attempt =
            store.tryClaim(
                campaign, new UserId("waiter"), 0, Deadline.after(started, DEADLINE, CLOCK));
        assertThat(attempt).isInstanceOf(ClaimStore.Attempt.Contended.class);
        assertThat(Duration.between(started, Instant.now())).isLessThan(DEADLINE.plusMillis(500));
      }
      inFlight.rollback(); // the claims in flight gave their coupons back
    }
    assertThat(store.tryClaim(campaign, new UserId("waiter"), 0, deadline()))
        .isInstanceOf(ClaimStore.Attempt.Won.class);
    assertThat(store.tryClaim(campaign, new UserId("second"), 0, deadline()))
        .isInstanceOf(ClaimStore.Attempt.Won.class);
    assertThat(store.tryClaim(campaign, new UserId("third"), 0, deadline()))
        .isInstanceOf(ClaimStore.Attempt.NoneLeft.class);
    assertThat(backend.claims(campaign.id().value())).hasSize(2);
  }

  /**
   * A claim of a user whose advisory lock another transaction holds waits at most until its
   * deadline ({@code lock_timeout}), answers Contended and writes nothing; other users go on.
   */
  @Test
  void aClaimWaitingForItsUsersLockEndsAtTheDeadline() throws Exception {
    Campaign campaign = newCampaign(3);
    UserId user = new UserId("locked-out");
    try (Connection sameUser = TestPostgres.connect()) {
      sameUser.setAutoCommit(false);
      try (PreparedStatement lock = sameUser.prepareStatement("SELECT pg_advisory_xact_lock(?, ?)")) {
        lock.setInt(1, PostgresClaimStore.lockKey(campaign.id().value()));
        lock.setInt(2, PostgresClaimStore.lockKey(user.key()));
        lock.executeQuery().close();
      }
      Instant started = Instant.now();
      ClaimStore.Attempt attempt =
          store.tryClaim(campaign, user, 0, Deadline.after(started, DEADLINE, CLOCK));
      Duration took = Duration.between(started, Instant.now());
      assertThat(attempt).isInstanceOf(ClaimStore.Attempt.Contended.class);
      assertThat(took).isGreaterThanOrEqualTo(DEADLINE.minusMillis(50)).isLessThan(DEADLINE.plusMillis(500));
      assertThat(store.tryClaim(campaign, new UserId("someone-else"), 0, deadline()))
          .isInstanceOf(ClaimStore.Attempt.Won.class);
      sameUser.rollback();
    }
    assertThat(store.holdings(campaign, user, Deadline.none())).isEmpty();
    assertThat(store.tryClaim(campaign, user, 0, deadline()))
        .isInstanceOf(ClaimStore.Attempt.Won.class);
    assertThat(store.tryClaim(campaign, user, 0, deadline()))
        .as("the slot is filled now")
        .isInstanceOf(ClaimStore.Attempt.SlotTaken.class);
  }

  /**
   * A claim into a filled slot, or past the limit, answers SlotTaken with the user's claims as
   * committed, read under the user's lock (G2, G4), and assigns nothing.
   */
  @Test
  void aTakenSlotAnswersTheHeldClaimsInSlotOrder() {
    backend.reset();
    Api.createCampaign(instance.url(), "pg-two-per-user", 2, 3);
    Campaign campaign =
        instance.context().getBean(CampaignService.class)
            .find(new CampaignId("pg-two-per-user")).orElseThrow();
    UserId user = new UserId("two-slots");
    Claim first = won(store.tryClaim(campaign, user, 0, deadline()));
    Claim second = won(store.tryClaim(campaign, user, 1, deadline()));

    for (int slot : new int[] {0, 1, 2}) {
      ClaimStore.Attempt again = store.tryClaim(campaign, user, slot, deadline());
      assertThat(again).as("slot " + slot).isInstanceOf(ClaimStore.Attempt.SlotTaken.class);
      assertThat(((ClaimStore.Attempt.SlotTaken) again).held()).containsExactly(first, second);
    }
    assertThat(backend.claims("pg-two-per-user")).hasSize(2);
    assertThat(backend.coupons("pg-two-per-user"))
        .filteredOn(StoreBackend.StoredCoupon::assigned)
        .hasSize(2);
  }

  /**
   * A claim's statement and lock timeouts hold for its own call only: each pooled connection, the
   * one it ran on among them, has the configured statement timeout and no lock timeout afterwards,
   * also after a claim that gave up at its lock timeout.
   */
  @Test
  void aClaimsTimeoutsEndWithItsCall() throws Exception {
    Campaign campaign = newCampaign(2);
    Map<String, Object> twoPooled = new HashMap<>(backend.properties());
    twoPooled.put("flashclaim.postgres.pool-size", String.valueOf(POOL)); // the migration takes 2
    UserId user = new UserId("timeouts");
    try (ServiceInstance single = ServiceInstance.start(twoPooled);
        Connection sameUser = TestPostgres.connect()) {
      ClaimStore singleStore = single.context().getBean(ClaimStore.class);
      DataSource pool = single.context().getBean(DataSource.class);
      sameUser.setAutoCommit(false);
      try (PreparedStatement lock = sameUser.prepareStatement("SELECT pg_advisory_xact_lock(?, ?)")) {
        lock.setInt(1, PostgresClaimStore.lockKey(campaign.id().value()));
        lock.setInt(2, PostgresClaimStore.lockKey(user.key()));
        lock.executeQuery().close();
      }
      assertThat(singleStore.tryClaim(campaign, user, 0, deadline()))
          .isInstanceOf(ClaimStore.Attempt.Contended.class);
      assertThat(settings(pool)).containsOnly(List.of("5s", "0")).hasSize(POOL);
      sameUser.rollback();
      won(singleStore.tryClaim(campaign, user, 0, deadline()));
      assertThat(settings(pool)).containsOnly(List.of("5s", "0")).hasSize(POOL);
    }
  }

  /**
   * One call with several attempts, as the batcher sends them: a user twice in it gets one coupon
   * (the second attempt sees the first one's claim), a user whose lock another transaction holds
   * is busy without holding up the others, and attempts past the pool's end are none left; the
   * store holds exactly the coupons the call answered won.
   */
  @Test
  void oneCallOfSeveralAttemptsAnswersEachAsIfAlone() throws Exception {
    Campaign campaign = newCampaign(3);
    String id = campaign.id().value();
    int campaignKey = PostgresClaimStore.lockKey(id);
    List<String> users = List.of("ann", "bob", "ann", "locked", "cid", "dan", "eve");
    try (Connection other = TestPostgres.connect();
        Connection caller = TestPostgres.connect()) {
      other.setAutoCommit(false);
      try (PreparedStatement lock = other.prepareStatement("SELECT pg_advisory_xact_lock(?, ?)")) {
        lock.setInt(1, campaignKey);
        lock.setInt(2, PostgresClaimStore.lockKey("locked"));
        lock.executeQuery().close();
      }
      List<String> rows = new ArrayList<>();
      try (PreparedStatement call =
          caller.prepareStatement(
              "SELECT item, result, held_code FROM claim_coupons(?, ?, ?, ?, ?, ?, now())")) {
        call.setArray(1, caller.createArrayOf("text", users.stream().map(u -> id).toArray()));
        call.setArray(2, caller.createArrayOf("text", users.toArray()));
        call.setArray(3, caller.createArrayOf("integer", users.stream().map(u -> 0).toArray()));
        call.setArray(4, caller.createArrayOf("integer", users.stream().map(u -> 1).toArray()));
        call.setArray(
            5, caller.createArrayOf("integer", users.stream().map(u -> campaignKey).toArray()));
        call.setArray(
            6,
            caller.createArrayOf(
                "integer", users.stream().map(PostgresClaimStore::lockKey).toArray()));
        try (ResultSet row = call.executeQuery()) {
          Map<Integer, String> wonCodes = new HashMap<>();
          while (row.next()) {
            rows.add(row.getInt("item") + " " + row.getString("result"));
            if (row.getString("held_code") != null) {
              wonCodes.merge(row.getInt("item"), row.getString("held_code"), (a, b) -> a + b);
            }
          }
          assertThat(wonCodes.get(3)).as("ann's second attempt holds her first coupon")
              .isEqualTo(wonCodes.get(1));
        }
      }
      other.rollback();
      assertThat(rows)
          .containsExactly("1 won", "2 won", "3 held", "4 busy", "5 won", "6 none_left", "7 none_left");
    }
    assertThat(backend.claims(id)).hasSize(3);
    assertThat(backend.coupons(id)).filteredOn(StoreBackend.StoredCoupon::assigned).hasSize(3);
  }

  private static Claim won(ClaimStore.Attempt attempt) {
    assertThat(attempt).isInstanceOf(ClaimStore.Attempt.Won.class);
    return ((ClaimStore.Attempt.Won) attempt).claim();
  }

  /** {@code statement_timeout} and {@code lock_timeout} of each of the pool's connections. */
  private static List<List<String>> settings(DataSource pool) throws Exception {
    List<Connection> all = new ArrayList<>();
    try {
      List<List<String>> settings = new ArrayList<>();
      for (int i = 0; i < POOL; i++) {
        Connection connection = pool.getConnection(); // all held at once: each a different one
        all.add(connection);
        try (Statement show = connection.createStatement();
            ResultSet row =
                show.executeQuery(
                    "SELECT current_setting('statement_timeout'), current_setting('lock_timeout')")) {
          row.next();
          settings.add(List.of(row.getString(1), row.getString(2)));
        }
      }
      return settings;
    } finally {
      for (Connection connection : all) {
        connection.close();
      }
    }
  }

  /**
   * The campaign read of a claim (a cache miss) waits for a lock that a migration holds: the claim
   * answers Busy at its deadline, not at the statement timeout (5 s), and writes nothing.
   */
  @Test
  void aClaimWhoseCampaignReadWaitsIsBusyAtTheDeadline() throws Exception {
    backend.reset();
    Api.createCampaign(instance.url(), "pg-uncached", 1, 1); // read by nobody: not cached
    ClaimService claims = instance.context().getBean(ClaimService.class);
    Duration configured = instance.context().getBean(ClaimConfig.class).deadline();
    CampaignId id = new CampaignId("pg-uncached");
    try (Connection migration = TestPostgres.connect()) {
      migration.setAutoCommit(false);
      try (PreparedStatement lock =
          migration.prepareStatement("LOCK TABLE campaigns IN ACCESS EXCLUSIVE MODE")) {
        lock.execute();
      }
      Instant started = Instant.now();
      // admitted long enough ago that DEADLINE is what is left
      ClaimOutcome outcome =
          claims.claim(id, new UserId("reader"), started.minus(configured).plus(DEADLINE));
      Duration took = Duration.between(started, Instant.now());
      assertThat(outcome).isInstanceOf(ClaimOutcome.Busy.class);
      assertThat(took)
          .isGreaterThanOrEqualTo(DEADLINE.minusMillis(50))
          .isLessThan(DEADLINE.plusMillis(1_000));
      migration.rollback();
    }
    assertThat(backend.claims("pg-uncached")).isEmpty();
    assertThat(claims.claim(id, new UserId("reader"))).isInstanceOf(ClaimOutcome.Claimed.class);
  }

  private static Deadline deadline() {
    return Deadline.after(Instant.now(), DEADLINE, CLOCK);
  }

  private static ResultSet executeQuery(PreparedStatement statement, String parameter)
      throws Exception {
    statement.setString(1, parameter);
    return statement.executeQuery();
  }
}
