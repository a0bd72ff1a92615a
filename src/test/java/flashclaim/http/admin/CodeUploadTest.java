package flashclaim.http.admin;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.Api;
import flashclaim.testing.Concurrently;
import flashclaim.testing.GeneratedLines;
import flashclaim.testing.PostgresBackend;
import flashclaim.testing.RawHttp;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.Tokens;
import io.netty.util.internal.PlatformDependent;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What of codes from a file lives in HTTP, on one instance on the embedded PostgreSQL: the report
 * and its exact fields, both formats, the Import-Id header and the import resource; the refusals
 * (unknown campaign, anonymous and user callers, a large declared body, all before a byte of the
 * body is read; other media types; a body past {@code file-max-size}); that the route reads the
 * body as it arrives (its progress shows before the body has ended, while the campaign can still be
 * paused); that an upload cut off mid-way, sent again, stocks every code exactly once; and that a
 * 1,000,000-line upload keeps the memory the service holds flat. The import's rules on both
 * stores are {@code CodeImportContract}'s.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CodeUploadTest {
  private static final String BASE = "/v1/admin/campaigns/";
  private static final int BATCH = 5_000;

  private final StoreBackend backend = new PostgresBackend();
  private ServiceInstance service;
  private URI url;
  private int campaigns;

  @BeforeAll
  void start() {
    service = ServiceInstance.start(with("flashclaim.seeding.files.batch-size", BATCH));
    url = service.url();
    backend.reset();
  }

  /** The store's properties and one more. */
  private Map<String, Object> with(String property, Object value) {
    Map<String, Object> properties = new java.util.HashMap<>(backend.properties());
    properties.put(property, value);
    return properties;
  }

  @AfterAll
  void stop() {
    service.close();
  }

  private String newCampaign() {
    String id = "upload-" + (++campaigns);
    Api.createCampaign(url, id, 1, 0);
    return id;
  }

  private static String lines(String prefix, int from, int to) {
    return IntStream.range(from, to).mapToObj(i -> prefix + i + "\n").collect(Collectors.joining());
  }

  private static Api.Response upload(
      URI url, String campaign, String contentType, String importId, String file) {
    return upload(url, campaign, contentType, importId, file, false);
  }

  /**
   * Uploads a file; with {@code expectContinue}, as curl sends a large file (Java 17's client waits
   * for ever when the answer to it is a refusal, so only for uploads that are taken).
   */
  private static Api.Response upload(
      URI url,
      String campaign,
      String contentType,
      String importId,
      String file,
      boolean expectContinue) {
    HttpRequest.Builder request =
        Api.request(url, BASE + campaign + "/coupons", Tokens.admin())
            .POST(HttpRequest.BodyPublishers.ofString(file))
            .expectContinue(expectContinue)
            .header("Content-Type", contentType);
    if (importId != null) {
      request.header("Import-Id", importId);
    }
    return Api.send(request.build());
  }

  private Api.Response state(String campaign, String importId) {
    return Api.get(url, BASE + campaign + "/imports/" + importId, Tokens.admin());
  }

  private long stock(String campaign) {
    return backend.coupons(campaign).size();
  }

  @Test
  void aFileOfLinesIsReportedExactly() {
    String campaign = newCampaign();
    String file =
        "\uFEFF"
            + lines("L", 0, 12_000).replace("\n", "\r\n")
            + "\r\n\r\nnot a code\r\nL5\r\n"
            + "y".repeat(2_000)
            + "\r\n";

    Api.Response answer = upload(url, campaign, "text/plain", null, file, true);

    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    Map<String, Object> report = answer.json();
    assertThat(report.keySet())
        .containsExactlyInAnyOrder("importId", "lines", "added", "skipped", "invalid", "invalidLines");
    String importId = answer.header("Import-Id");
    assertThat(importId).matches("imp-[0-9a-z]{20}").isEqualTo(report.get("importId"));
    assertThat(report)
        .containsEntry("lines", 12_003)
        .containsEntry("added", 12_000)
        .containsEntry("skipped", 1)
        .containsEntry("invalid", 2);
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> invalid = (List<Map<String, Object>>) report.get("invalidLines");
    assertThat(invalid).extracting(l -> l.get("line")).containsExactly(12_003, 12_005);
    assertThat(invalid.get(1).get("reason")).isEqualTo("longer than 1024 characters");
    assertThat(stock(campaign)).isEqualTo(12_000);

    Api.Response state = state(campaign, importId);
    assertThat(state.status()).isEqualTo(200);
    assertThat(state.json())
        .isEqualTo(
            Map.of(
                "importId", importId,
                "state", "done",
                "lines", 12_003,
                "added", 12_000,
                "skipped", 1,
                "invalid", 2));
  }

  @Test
  void aCsvFileWithItsImportId() {
    String campaign = newCampaign();
    String csv = "shop,code,valid until\nacme,\"C-1\",2030\nacme,C-2,\"1 Jan, 2030\"\nacme\n";

    Api.Response answer =
        upload(url, campaign, "text/csv; charset=utf-8", "partner-7", csv, true);

    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    assertThat(answer.header("Import-Id")).isEqualTo("partner-7");
    assertThat(answer.json())
        .containsEntry("importId", "partner-7")
        .containsEntry("lines", 3)
        .containsEntry("added", 2)
        .containsEntry("invalid", 1);
    assertThat(backend.coupons(campaign))
        .extracting(StoreBackend.StoredCoupon::code)
        .containsExactlyInAnyOrder("C-1", "C-2");
  }

  @Test
  void refusalsChangeNothing() throws IOException {
    String campaign = newCampaign();
    String coupons = BASE + campaign + "/coupons";

    // Refused before a byte of the 100 MB the requests declare is sent.
    assertThat(declaredOnly(BASE + "no-such-campaign/coupons", Tokens.admin()).status())
        .isEqualTo(404);
    assertThat(declaredOnly(coupons, null).status()).isEqualTo(401);
    assertThat(declaredOnly(coupons, Tokens.user("u1")).status()).isEqualTo(403);

    assertThat(upload(url, campaign, "application/xml", null, "X1\n").status()).isEqualTo(415);
    assertThat(upload(url, campaign, "text/plain", "not/an id", "X1\n").status()).isEqualTo(400);
    Api.Response noColumn = upload(url, campaign, "text/csv", null, "shop,coupon\nacme,X1\n");
    assertThat(noColumn.status()).isEqualTo(400);
    assertThat(noColumn.body()).contains("'code' column");
    Api.Response unknown = state(campaign, "never-ran");
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.body()).contains("urn:flashclaim:problem:import-not-found");

    assertThat(stock(campaign)).isZero();
  }

  /** Sends the head of an upload that declares 100 MB, and no body; the answer. */
  private Api.Response declaredOnly(String target, String token) throws IOException {
    try (Socket socket = new Socket(url.getHost(), url.getPort())) {
      socket.setSoTimeout(30_000);
      String head =
          "POST " + target + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\n"
              + (token == null ? "" : "Authorization: Bearer " + token + "\r\n")
              + "Content-Length: 100000000\r\n\r\n";
      socket.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      return RawHttp.answer(socket, "POST", target);
    }
  }

  /**
   * Half of a 50,000-line file is sent and the rest held back: the import's state shows batches
   * added meanwhile (the route reads the body as it arrives), the same Import-Id is refused, a
   * pause of the campaign goes through. Then the connection is cut: the import fails, and the whole
   * file sent again stocks each code exactly once.
   */
  @Test
  void theBodyStreamsAndACutUploadResumes() throws IOException {
    String campaign = newCampaign();
    String target = BASE + campaign + "/coupons";
    byte[] file = lines("S", 0, 50_000).getBytes(StandardCharsets.UTF_8);
    byte[] half = lines("S", 0, 25_000).getBytes(StandardCharsets.UTF_8);
    try (Socket socket = new Socket(url.getHost(), url.getPort())) {
      String head =
          "POST " + target + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\n"
              + "Authorization: Bearer " + Tokens.admin() + "\r\nImport-Id: cut-1\r\n"
              + "Content-Length: " + file.length + "\r\n\r\n";
      OutputStream out = socket.getOutputStream();
      out.write(head.getBytes(StandardCharsets.US_ASCII));
      out.write(half);
      out.flush();

      Map<String, Object> running =
          awaitState(campaign, "cut-1", s -> ((Number) s.get("added")).longValue() >= 2 * BATCH);
      assertThat(running.get("state")).isEqualTo("running");
      assertThat(upload(url, campaign, "text/plain", "cut-1", "X1\n").status()).isEqualTo(409);
      Api.Response paused =
          Api.send(
              Api.request(url, BASE + campaign, Tokens.admin())
                  .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"paused\":true}"))
                  .header("Content-Type", "application/merge-patch+json")
                  .build());
      assertThat(paused.status()).as(paused.body()).isEqualTo(200);

      socket.setSoLinger(true, 0); // the close resets the connection
    }
    awaitState(campaign, "cut-1", s -> "failed".equals(s.get("state")));
    long before = stock(campaign);
    assertThat(before).isBetween(2L * BATCH, 25_000L);

    Api.Response again =
        upload(url, campaign, "text/plain", "cut-1", new String(file, StandardCharsets.UTF_8));

    assertThat(again.status()).as(again.body()).isEqualTo(200);
    assertThat(again.json())
        .containsEntry("lines", 50_000)
        .containsEntry("added", (int) (50_000 - before))
        .containsEntry("skipped", (int) before)
        .containsEntry("invalid", 0);
    assertThat(stock(campaign)).isEqualTo(50_000);
  }

  private Map<String, Object> awaitState(
      String campaign, String importId, java.util.function.Predicate<Map<String, Object>> until) {
    Map<String, Object> last = null;
    for (int i = 0; i < 600; i++) {
      Api.Response state = state(campaign, importId);
      if (state.status() == 200) {
        last = state.json();
        if (until.test(last)) {
          return last;
        }
      }
      Concurrently.sleep(100);
    }
    throw new AssertionError("the import did not get there within 60 s; last state " + last);
  }

  /**
   * A body past {@code file-max-size}: 413, declared (before reading) or streamed (once passed);
   * nothing past the limit kept.
   */
  @Test
  void aFileOverItsLimitIsRefused() {
    try (ServiceInstance small =
        ServiceInstance.start(with("flashclaim.http.bodies.file-max-size", "64KB"))) {
      String campaign = newCampaign();
      String file = lines("B", 0, 20_000); // about 130 KB
      Api.Response declared = upload(small.url(), campaign, "text/plain", null, file);
      Api.Response streamed =
          Api.send(
              Api.request(small.url(), BASE + campaign + "/coupons", Tokens.admin())
                  .POST(
                      HttpRequest.BodyPublishers.ofInputStream(
                          () -> new java.io.ByteArrayInputStream(file.getBytes(StandardCharsets.UTF_8))))
                  .header("Content-Type", "text/plain")
                  .build());

      assertThat(declared.status()).isEqualTo(413);
      assertThat(streamed.status()).isEqualTo(413);
      // Only codes read before the limit was passed may have been added (whole batches of them).
      long fitting = lines("B", 0, 20_000).substring(0, 64 * 1024).chars().filter(c -> c == '\n').count();
      assertThat(stock(campaign)).isLessThanOrEqualTo(fitting);
    }
  }

  /**
   * 1,000,000 codes of 40 characters (41 MB) in one streamed request: the heap in use after a GC
   * and the framework's pooled buffers, measured while 800,000 lines (33 MB) have been sent, grow
   * by far less than the bytes sent; the whole file is stocked.
   */
  @Test
  void aMillionCodesKeepTheMemoryFlat() {
    String campaign = newCampaign();
    int total = 1_000_000;
    long[] measured = new long[2];
    measured[0] = retained();
    Supplier<InputStream> file =
        () ->
            new GeneratedLines(
                total, i -> String.format("M%039d", i), 800_000, () -> measured[1] = retained());

    Api.Response answer =
        Api.send(
            Api.request(url, BASE + campaign + "/coupons", Tokens.admin())
                .POST(HttpRequest.BodyPublishers.ofInputStream(file))
                .header("Content-Type", "text/plain")
                .header("Import-Id", "million")
                .build());

    long sent = 800_000L * 41;
    long growth = measured[1] - measured[0];
    System.out.printf(
        "1,000,000-line upload: held before %d MB, with %d MB sent %d MB (growth %d MB)%n",
        measured[0] >> 20, sent >> 20, measured[1] >> 20, growth >> 20);
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    assertThat(answer.json()).containsEntry("lines", total).containsEntry("added", total);
    assertThat(stock(campaign)).isEqualTo(total);
    assertThat(growth).isLessThan(sent / 4);
  }

  /**
   * Heap in use after a GC, and the direct memory in use: the larger of Netty's own count and the
   * JDK's (Netty's buffers are in one or the other, or both, as the JVM lets it allocate). A body
   * that the framework held whole (checked by making it do so) shows here as direct memory.
   */
  private static long retained() {
    System.gc();
    long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    long netty = Math.max(0, PlatformDependent.usedDirectMemory());
    long jdk =
        ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
            .mapToLong(BufferPoolMXBean::getMemoryUsed)
            .sum();
    System.out.printf("held: heap %d MB, Netty direct %d MB, JDK direct %d MB%n",
        heap >> 20, netty >> 20, jdk >> 20);
    return heap + Math.max(netty, jdk);
  }
}
