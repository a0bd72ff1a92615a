package flashclaim.http.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import flashclaim.results.ResultsService;
import flashclaim.testing.Api;
import flashclaim.testing.PostgresBackend;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.TestPostgres;
import flashclaim.testing.Tokens;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The export streams with bounded memory: 1,000,000 claims, written straight into the embedded
 * PostgreSQL with SQL, are exported through HTTP as CSV (well over 100 MB) while the test reads
 * the download line by line and, every 100,000 lines, measures the heap of this JVM (which runs
 * the service) after a full collection: it never grows by more than a small part of what was
 * sent. Every row arrives, in order, with its redemption. An export whose client goes away after
 * a few lines gives its database connection back, and while it is open a second one is refused
 * with 503 {@code overloaded} ({@code flashclaim.results.max-exports} is 1 here); one whose database
 * connection dies mid-stream breaks the download off with an error. Not timed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExportMemoryTest {
  private static final String CAMPAIGN = "memory";
  private static final int CLAIMS = 1_000_000;
  /** Every tenth claim is redeemed. */
  private static final int REDEEMED = CLAIMS / 10;
  private static final long MB = 1024 * 1024;

  private final StoreBackend backend = new PostgresBackend();
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private ServiceInstance service;

  @BeforeAll
  void start() throws Exception {
    Map<String, Object> properties = new HashMap<>(backend.properties());
    properties.put("flashclaim.results.max-exports", 1);
    service = ServiceInstance.start(properties); // migrates the database
    backend.reset();
    seed();
  }

  @AfterAll
  void stop() {
    service.close();
    backend.reset();
  }

  /** The campaign and its claims, as claims would have written them, one statement each. */
  private static void seed() throws Exception {
    try (Connection c = TestPostgres.connect();
        Statement sql = c.createStatement()) {
      sql.execute(
          "INSERT INTO campaigns (id, name, per_user_limit, created_at)"
              + " VALUES ('" + CAMPAIGN + "', 'memory', 1, now())");
      sql.execute(
          "INSERT INTO coupons (campaign_id, code, assigned_to, claim_slot, assigned_at,"
              + " redemption_state, order_id, redeemed_at)"
              + " SELECT '" + CAMPAIGN + "', 'CODE-' || i,"
              + " encode(sha256(('user-' || i)::bytea), 'hex'), 0,"
              + " timestamptz '2026-12-01 10:00:00+00' + i * interval '1 millisecond',"
              + " CASE WHEN i % 10 = 0 THEN 'redeemed' END,"
              + " CASE WHEN i % 10 = 0 THEN 'order-' || i END,"
              + " CASE WHEN i % 10 = 0 THEN now() END"
              + " FROM generate_series(1, " + CLAIMS + ") i");
      sql.execute(
          "INSERT INTO claims (campaign_id, user_key, slot, code, claimed_at)"
              + " SELECT campaign_id, assigned_to, claim_slot, code, assigned_at FROM coupons"
              + " WHERE campaign_id = '" + CAMPAIGN + "'");
      sql.execute("ANALYZE coupons");
      sql.execute("ANALYZE claims");
    }
  }

  private HttpResponse<InputStream> download() throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(service.url().resolve("/v1/admin/campaigns/" + CAMPAIGN + "/claims"))
            .header("Authorization", "Bearer " + Tokens.admin())
            .header("Accept", "text/csv")
            .timeout(Duration.ofMinutes(10))
            .GET()
            .build();
    return http.send(request, HttpResponse.BodyHandlers.ofInputStream());
  }

  private static long heapAfterGc() {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return memory.getHeapMemoryUsage().getUsed();
  }

  @Test
  void aMillionClaimsStreamWithTheHeapFlat() throws Exception {
    long baseline = heapAfterGc();
    long peak = baseline;
    long lines = 0;
    long bytes = 0;
    long redeemed = 0;
    String lastUser = "";
    HttpResponse<InputStream> response = download();
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/csv"));
    Instant.parse(response.headers().firstValue(ResultsController.READ_AT).orElseThrow());
    try (BufferedReader rows =
        new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
      assertThat(rows.readLine()).isEqualTo(ExportWriter.CSV_HEADER);
      for (String row = rows.readLine(); row != null; row = rows.readLine()) {
        lines++;
        bytes += row.length() + 2;
        String[] fields = row.split(",", -1);
        assertThat(fields).hasSize(5);
        assertThat(fields[1].compareTo(lastUser)).as("sorted by user").isPositive();
        lastUser = fields[1];
        if (fields[3].equals("redeemed")) {
          redeemed++;
          assertThat(fields[4]).isEqualTo("order-" + fields[0].substring("CODE-".length()));
        } else {
          assertThat(fields[3]).isEqualTo("claimed");
          assertThat(fields[4]).isEmpty();
        }
        if (lines % 100_000 == 0) {
          peak = Math.max(peak, heapAfterGc());
        }
      }
    }
    assertThat(lines).isEqualTo(CLAIMS);
    assertThat(redeemed).isEqualTo(REDEEMED);
    assertThat(bytes).isGreaterThan(100 * MB);
    long growth = peak - baseline;
    assertThat(growth)
        .as("heap growth %d MB while %d MB were exported", growth / MB, bytes / MB)
        .isLessThan(32 * MB)
        .isLessThan(bytes / 4);
    awaitNoExportOpen();
  }

  @Test
  void anExportWhoseClientGoesAwayGivesItsConnectionBack() throws Exception {
    ResultsService results = service.context().getBean(ResultsService.class);
    try (BufferedReader rows = startedDownload()) {
      assertThat(results.openExports()).isEqualTo(1);
      Api.Response second =
          Api.send(
              Api.request(service.url(), "/v1/admin/campaigns/" + CAMPAIGN + "/claims", Tokens.admin())
                  .GET()
                  .build());
      assertThat(second.status()).isEqualTo(503);
      assertThat(second.json().get("type")).isEqualTo("urn:flashclaim:problem:overloaded");
    } // closing the body cancels the download: the client has gone away
    awaitNoExportOpen();
    try (Connection c = TestPostgres.connect();
        Statement sql = c.createStatement();
        var open = sql.executeQuery(
            "SELECT count(*) FROM pg_stat_activity WHERE state LIKE 'idle in transaction%'"
                + " AND query LIKE '%FROM claims c%' AND datname = current_database()")) {
      open.next();
      assertThat(open.getLong(1)).as("transactions of exports still open").isZero();
    }
  }

  /**
   * A store that fails after the first chunks (the export's database connection is terminated)
   * can no longer change the 200: the download breaks off with an error instead of ending short as
   * if complete, and the export is closed.
   */
  @Test
  void aStoreFailureMidStreamBreaksTheDownloadOff() throws Exception {
    try (BufferedReader rows = startedDownload()) {
      try (Connection c = TestPostgres.connect();
          Statement sql = c.createStatement();
          var terminated =
              sql.executeQuery(
                  "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                      + " WHERE query LIKE '%FROM claims c%' AND datname = current_database()"
                      + " AND pid <> pg_backend_pid()")) {
        terminated.next();
        assertThat(terminated.getLong(1)).as("the export's connection").isEqualTo(1);
      }
      assertThatThrownBy(
              () -> {
                long lines = 1_000;
                while (rows.readLine() != null) {
                  lines++;
                }
                throw new AssertionError("the download ended cleanly after " + lines + " lines");
              })
          .isInstanceOf(IOException.class);
    }
    awaitNoExportOpen();
  }

  /** A download of the export whose header and first 999 rows were read. */
  private BufferedReader startedDownload() throws Exception {
    HttpResponse<InputStream> response = download();
    assertThat(response.statusCode()).isEqualTo(200);
    BufferedReader rows =
        new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
    for (int i = 0; i < 1_000; i++) {
      assertThat(rows.readLine()).isNotNull();
    }
    return rows;
  }

  /** Waits, up to a minute, until the service has no export open: it closed what it read. */
  private void awaitNoExportOpen() throws InterruptedException {
    ResultsService results = service.context().getBean(ResultsService.class);
    for (int i = 0; i < 600 && results.openExports() > 0; i++) {
      Thread.sleep(100);
    }
    assertThat(results.openExports()).as("exports still open").isZero();
  }
}
