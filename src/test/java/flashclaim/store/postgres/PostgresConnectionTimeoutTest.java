package flashclaim.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import flashclaim.claim.UserId;
import flashclaim.testing.Api;
import flashclaim.testing.Claimer;
import flashclaim.testing.Paused;
import flashclaim.testing.PostgresBackend;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.TestPostgres;
import flashclaim.testing.Tokens;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * G6 on PostgreSQL when a connection stops answering: the pool's socket timeout frees a thread
 * whose database went silent, a claim's statements wait for a silent database at most until the
 * claim's deadline plus {@code cancel-grace}, and timeouts that contradict each other refuse to
 * start.
 */
class PostgresConnectionTimeoutTest {
  /** What an answer may take beyond its bound on a loaded machine; far below what it is without. */
  private static final Duration MARGIN = Duration.ofMillis(1_500);

  private final StoreBackend backend = new PostgresBackend();

  private Map<String, Object> properties(Map<String, Object> overrides) {
    Map<String, Object> properties = new HashMap<>(backend.properties());
    properties.putAll(overrides);
    return properties;
  }

  /**
   * A statement that gets no answer for longer than the socket timeout (a sleep the server is told
   * not to cut) loses its connection after the socket timeout, not after the sleep; the pool then
   * hands out a working connection.
   */
  @Test
  void aConnectionThatStopsAnsweringIsClosedAfterTheSocketTimeout() throws Exception {
    Duration socketTimeout = Duration.ofSeconds(2);
    try (ServiceInstance instance =
        ServiceInstance.start(
            properties(
                Map.of(
                    "flashclaim.postgres.call-timeout", "1s",
                    "flashclaim.postgres.socket-timeout", socketTimeout.toMillis() + "ms")))) {
      HikariDataSource pool = instance.context().getBean(HikariDataSource.class);
      long started = System.nanoTime();
      assertThatThrownBy(
              () -> {
                try (Connection connection = pool.getConnection()) {
                  connection.setAutoCommit(false);
                  try (Statement silent = connection.createStatement()) {
                    silent.execute("SET LOCAL statement_timeout = 0");
                    silent.execute("SELECT pg_sleep(20)");
                  }
                }
              })
          .isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).startsWith("08"));
      Duration took = Duration.ofNanos(System.nanoTime() - started);
      assertThat(took).isGreaterThanOrEqualTo(socketTimeout.minusMillis(100));
      assertThat(took).isLessThan(socketTimeout.plus(MARGIN));

      try (Connection connection = pool.getConnection();
          Statement select = connection.createStatement();
          ResultSet row = select.executeQuery("SELECT 1")) {
        assertThat(row.next()).isTrue();
      }
    }
  }

  /**
   * Every pooled connection busy (the test holds them) and a connection timeout far longer than a
   * claim's deadline: the claim waits for a connection only until its deadline and answers 503
   * busy, and the user's next claim, once a connection is free, gets a coupon.
   */
  @Test
  void aClaimWaitsForAPooledConnectionOnlyUntilItsDeadline() throws Exception {
    Duration deadline = Duration.ofMillis(800);
    Duration connectionTimeout = Duration.ofSeconds(20);
    try (ServiceInstance instance =
        ServiceInstance.start(
            properties(
                Map.of(
                    "flashclaim.claim.deadline", deadline.toMillis() + "ms",
                    "flashclaim.postgres.pool-size", 2,
                    "flashclaim.postgres.connection-timeout", connectionTimeout.toMillis() + "ms")))) {
      cachedCampaign(instance, "busy-pool"); // the claim below needs only a connection
      HikariDataSource pool = instance.context().getBean(HikariDataSource.class);
      Api.Response busy;
      long took;
      try (Connection first = pool.getConnection();
          Connection second = pool.getConnection()) {
        long sent = System.nanoTime();
        busy = Api.post(instance.url(), "/v1/campaigns/busy-pool/claims", Tokens.user("waiting"), null);
        took = System.nanoTime() - sent;
      }
      assertThat(busy.status()).isEqualTo(503);
      assertThat(busy.json()).containsEntry("type", "urn:flashclaim:problem:busy");
      assertThat(Duration.ofNanos(took)).isLessThan(deadline.plus(MARGIN));
      assertThat(Claimer.claimUntilFinal(instance.url(), "busy-pool", "waiting"))
          .matches(Claimer.Result::tookACoupon);
      assertThat(backend.claims("busy-pool")).hasSize(2);
    }
  }

  /**
   * A claim whose backend stops (SIGSTOP) while the claim waits in it (for the coupon table, which
   * the test holds locked): neither the server's lock timeout nor a cancel can end the wait, and
   * the socket timeout is 20 s; the claim's own network
   * timeout ends it at the deadline plus cancel-grace, with 503 busy. The claim wrote nothing, and
   * the user's next claim gets a coupon.
   */
  @Test
  void aClaimWhoseBackendStopsAnsweringIsBusyByItsDeadlinePlusTheCancelGrace() throws Exception {
    Duration deadline = Duration.ofSeconds(2);
    Duration cancelGrace = Duration.ofMillis(300);
    try (ServiceInstance instance =
        ServiceInstance.start(
            properties(
                Map.of(
                    "flashclaim.claim.deadline", deadline.toMillis() + "ms",
                    "flashclaim.guard.enabled", false,
                    "flashclaim.postgres.call-timeout", "10s",
                    "flashclaim.postgres.lock-timeout", "10s",
                    "flashclaim.postgres.socket-timeout", "20s",
                    "flashclaim.postgres.cancel-grace", cancelGrace.toMillis() + "ms")))) {
      cachedCampaign(instance, "stopped-backend"); // the claim below goes straight to its transaction
      UserId user = new UserId("stopped");
      try (Connection migration = TestPostgres.connect()) {
        migration.setAutoCommit(false);
        try (PreparedStatement lock =
            migration.prepareStatement("LOCK TABLE coupons IN ACCESS EXCLUSIVE MODE")) {
          lock.execute();
        }
        long sent = System.nanoTime();
        CompletableFuture<Api.Response> answer =
            CompletableFuture.supplyAsync(
                () ->
                    Api.post(
                        instance.url(),
                        "/v1/campaigns/stopped-backend/claims",
                        Tokens.user(user.value()),
                        null));
        Api.Response response;
        try (Paused stopped = Paused.process(waitingBackend())) {
          response =
              answer.get(deadline.plus(cancelGrace).plus(MARGIN).toMillis(), TimeUnit.MILLISECONDS);
        }
        Duration took = Duration.ofNanos(System.nanoTime() - sent);
        assertThat(response.status()).as(response.toString()).isEqualTo(503);
        assertThat(response.json().get("type")).isEqualTo("urn:flashclaim:problem:busy");
        assertThat(response.header("Retry-After")).isNotNull();
        assertThat(took).isGreaterThanOrEqualTo(deadline.minusMillis(50));
        migration.rollback();
      }
      assertThat(backend.claims("stopped-backend")).hasSize(1); // only the warm-up's
      assertThat(Claimer.claimUntilFinal(instance.url(), "stopped-backend", user.value()).status())
          .isEqualTo(201);
    }
  }

  /**
   * A campaign of 3 coupons on an emptied store, which {@code instance} has cached: the user
   * {@code warm} claimed one of them through it.
   */
  private static void cachedCampaign(ServiceInstance instance, String campaign) {
    TestPostgres.reset();
    Api.createCampaign(instance.url(), campaign, 1, 3);
    assertThat(Claimer.claimUntilFinal(instance.url(), campaign, "warm"))
        .matches(Claimer.Result::tookACoupon);
  }

  /** A socket timeout at or below the statement timeout would cut statements that are alive. */
  @Test
  void aSocketTimeoutNotAboveTheCallTimeoutRefusesToStart() {
    assertThatThrownBy(
            () ->
                ServiceInstance.start(
                    properties(
                        Map.of(
                            "flashclaim.postgres.call-timeout", "5s",
                            "flashclaim.postgres.socket-timeout", "5s")))
                    .close())
        .hasStackTraceContaining("flashclaim.postgres.socket-timeout");
  }

  /** Claims must be able to reach the database: no calls at once, or batches of none, refuse. */
  @Test
  void noClaimCallsOrEmptyClaimBatchesRefuseToStart() {
    for (String property :
        List.of("flashclaim.postgres.claim-calls", "flashclaim.postgres.claim-batch-size")) {
      assertThatThrownBy(() -> ServiceInstance.start(properties(Map.of(property, "0"))).close())
          .as(property)
          .hasStackTraceContaining("claim-batch-size and claim-calls must be at least 1");
    }
  }

  /**
   * The process id of the backend that waits for a table lock, read on a connection of its own
   * in autocommit mode (a transaction would see one snapshot of the activity).
   */
  private static long waitingBackend() throws Exception {
    long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    try (Connection watcher = TestPostgres.connect();
        PreparedStatement select =
            watcher.prepareStatement(
                "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                    + " AND wait_event = 'relation' AND pid <> pg_backend_pid()")) {
      while (System.nanoTime() < giveUp) {
        try (ResultSet row = select.executeQuery()) {
          if (row.next()) {
            return row.getLong(1);
          }
        }
        Thread.sleep(5);
      }
    }
    throw new AssertionError("no claim waited for the coupon table");
  }
}
