package flashclaim.bench;

import flashclaim.audit.AuditReport;
import flashclaim.audit.AuditService;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CampaignService;
import flashclaim.campaign.CodePrefix;
import flashclaim.campaign.CouponStore;
import flashclaim.claim.ClaimService;
import flashclaim.claim.UserId;
import flashclaim.testing.PostgresBackend;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.TestEmulator;
import io.micronaut.context.ApplicationContext;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * W5 and the admin reads at scale, in-process on one store: generating {@code --codes} codes in one
 * call, the stock, {@code --claims} claims, the stock again and the audit, each timed; with {@code
 * --million}, then 1,000,000 codes in one campaign in calls of 100,000, the heap in use after each
 * call, and the stock and audit of that campaign. Prints each figure with the date, machine and
 * command.
 *
 * <p>Run: {@code ./mvnw -q -DskipTests test-compile exec:exec -Dexec.classpathScope=test
 * -Dexec.executable=java -Dexec.args="-Xmx1g -Dflashclaim.test.emulator-heap=3g -cp %classpath
 * flashclaim.bench.SeedAndAuditTiming --store=firestore"}
 */
public final class SeedAndAuditTiming {
  private SeedAndAuditTiming() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> given = BenchArguments.parse(args);
    String store = given.getOrDefault("store", "firestore");
    int codes = Integer.parseInt(given.getOrDefault("codes", "100000"));
    int claims = Integer.parseInt(given.getOrDefault("claims", "5000"));
    BenchArguments.printBanner("SeedAndAuditTiming", store, args);
    Map<String, Object> properties;
    StoreBackend backend = null;
    if (store.equals("postgres")) {
      backend = new PostgresBackend();
      properties = ClaimBenchmark.postgresProperties(backend);
    } else {
      TestEmulator.reset();
      properties = ClaimBenchmark.firestore("optimistic");
    }
    try (ApplicationContext context = ApplicationContext.run(properties)) {
      if (backend != null) {
        backend.reset();
      }
      CampaignService campaigns = context.getBean(CampaignService.class);
      CouponStore coupons = context.getBean(CouponStore.class);
      AuditService audits = context.getBean(AuditService.class);
      ClaimService claimService = context.getBean(ClaimService.class);

      CampaignId w5 = new CampaignId("w5");
      campaigns.create(w5, "W5", 1, null, null);
      time("generate " + codes + " codes in one call", () -> campaigns.generate(w5, codes, new CodePrefix("W5-")).orElseThrow());
      time("stock", () -> coupons.stock(w5));
      ExecutorService workers = Executors.newFixedThreadPool(16);
      long started = System.nanoTime();
      for (int i = 0; i < claims; i++) {
        UserId user = new UserId("w5-user-" + i);
        workers.submit(() -> claimService.claim(w5, user));
      }
      workers.shutdown();
      workers.awaitTermination(10, TimeUnit.MINUTES);
      System.out.printf(Locale.ROOT, "%d claims in %.1f s%n", claims, (System.nanoTime() - started) / 1e9);
      time("stock after the claims", () -> coupons.stock(w5));
      AuditReport report = time("audit", () -> audits.audit(w5).orElseThrow());
      heap("after the audit");

      if (given.containsKey("million")) {
        CampaignId big = new CampaignId("million");
        campaigns.create(big, "1,000,000 codes", 1, null, null);
        for (int call = 1; call <= 10; call++) {
          time("call " + call + " of 10: generate 100000 codes", () -> campaigns.generate(big, 100_000, new CodePrefix("M-")).orElseThrow());
          heap("after call");
        }
        time("stock of 1,000,000", () -> coupons.stock(big));
        time("audit of 1,000,000", () -> audits.audit(big).orElseThrow());
        heap("after the audit of 1,000,000");
      }
    }
    System.exit(0);
  }

  private static <T> T time(String what, Supplier<T> step) {
    long started = System.nanoTime();
    T result = step.get();
    System.out.printf(Locale.ROOT, "%-45s %8.2f s  %s%n", what, (System.nanoTime() - started) / 1e9, result);
    return result;
  }

  private static void heap(String when) {
    Runtime rt = Runtime.getRuntime();
    System.gc();
    System.out.printf("heap in use %s: %d MB%n", when, (rt.totalMemory() - rt.freeMemory()) >> 20);
  }
}
