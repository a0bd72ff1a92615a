package flashclaim.bench;

import flashclaim.testing.Api;
import flashclaim.testing.GeneratedLines;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.Tokens;
import java.net.http.HttpRequest;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * W5, file variant: a file of {@code --codes} codes (default 100,000) uploaded as {@code
 * text/plain} to the add-coupons route of one instance on one store ({@code --store=postgres} or
 * {@code firestore}), timed from the request to its report; {@code --rounds} uploads (default 3,
 * each into a new campaign, the first one warming the JVM up); with {@code --million}, then one
 * upload of 1,000,000 codes. The file is made as it is sent, never held. Prints each figure with
 * the heap in use after it (after a GC), and the date, machine and command; exits non-zero when an
 * upload did not stock every code.
 *
 * <p>Run: {@code ./mvnw -q -DskipTests test-compile exec:exec -Dexec.classpathScope=test
 * -Dexec.executable=java -Dexec.args="-Xmx1g -Dflashclaim.test.emulator-heap=3g -cp %classpath
 * flashclaim.bench.FileUploadTiming --store=postgres --million"}
 */
public final class FileUploadTiming {
  private FileUploadTiming() {}

  public static void main(String[] args) {
    Map<String, String> given = BenchArguments.parse(args);
    String store = given.getOrDefault("store", "postgres");
    int codes = Integer.parseInt(given.getOrDefault("codes", "100000"));
    int rounds = Integer.parseInt(given.getOrDefault("rounds", "3"));
    BenchArguments.printBanner("FileUploadTiming", store, args);
    StoreBackend backend = StoreBackend.named(store);
    Map<String, Object> properties = new HashMap<>(backend.properties());
    properties.put("micronaut.health.monitor.enabled", false);
    boolean ok = true;
    try (ServiceInstance instance = ServiceInstance.start(properties)) {
      backend.reset();
      for (int round = 1; round <= rounds; round++) {
        ok &= upload(instance, "w5-file-" + round, codes);
      }
      if (given.containsKey("million")) {
        ok &= upload(instance, "w5-file-million", 1_000_000);
      }
    }
    System.exit(ok ? 0 : 1);
  }

  /** Uploads {@code codes} fresh codes into a new campaign; whether all were stocked. */
  private static boolean upload(ServiceInstance instance, String campaign, int codes) {
    Api.createCampaign(instance.url(), campaign, 1, 0);
    long started = System.nanoTime();
    Api.Response answer =
        Api.send(
            Api.request(instance.url(), "/v1/admin/campaigns/" + campaign + "/coupons", Tokens.admin())
                .POST(
                    HttpRequest.BodyPublishers.ofInputStream(
                        () -> new GeneratedLines(codes, i -> campaign + "-" + i)))
                .header("Content-Type", "text/plain")
                .build());
    double seconds = (System.nanoTime() - started) / 1e9;
    Object added = answer.status() == 200 ? answer.json().get("added") : null;
    long stored = total(instance, campaign);
    boolean complete = added != null && ((Number) added).longValue() == codes && stored == codes;
    Runtime rt = Runtime.getRuntime();
    System.gc();
    System.out.printf(
        Locale.ROOT,
        "W5 file: %d codes uploaded in %.2f s (%.0f codes/s); answer %d, %d stored; heap in use"
            + " after it %d MB%s%n",
        codes, seconds, codes / seconds, answer.status(), stored,
        (rt.totalMemory() - rt.freeMemory()) >> 20, complete ? "" : "  INCOMPLETE " + answer);
    return complete;
  }

  /** The campaign's total stock, as the admin route reads it (counts, not the coupons). */
  @SuppressWarnings("unchecked")
  private static long total(ServiceInstance instance, String campaign) {
    Api.Response read = Api.get(instance.url(), "/v1/admin/campaigns/" + campaign, Tokens.admin());
    if (read.status() != 200) {
      return -1;
    }
    return ((Number) ((Map<String, Object>) read.json().get("stock")).get("total")).longValue();
  }
}
