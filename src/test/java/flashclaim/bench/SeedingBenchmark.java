package flashclaim.bench;

import flashclaim.testing.Api;
import flashclaim.testing.PostgresBackend;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.Tokens;
import java.util.Locale;
import java.util.Map;

/**
 * W5 on PostgreSQL: a campaign's pool seeded with generated codes through the admin route, on the
 * embedded PostgreSQL of the tests, timed from the request to its answer. Arguments (optional):
 * {@code --codes=100000 --rounds=3}. Each round seeds a new campaign; the first one warms the JVM
 * up. Exits non-zero when a round did not add every code.
 */
public final class SeedingBenchmark {
  private SeedingBenchmark() {}

  public static void main(String[] args) {
    Map<String, String> given = BenchArguments.parse(args);
    int codes = Integer.parseInt(given.getOrDefault("codes", "100000"));
    int rounds = Integer.parseInt(given.getOrDefault("rounds", "3"));
    StoreBackend postgres = new PostgresBackend();
    boolean ok = true;
    try (ServiceInstance instance = ServiceInstance.start(postgres.properties())) {
      postgres.reset();
      for (int round = 1; round <= rounds; round++) {
        String campaign = "w5-" + round;
        Api.createCampaign(instance.url(), campaign, 1, 0);
        long started = System.nanoTime();
        Api.Response added =
            Api.post(
                instance.url(),
                "/v1/admin/campaigns/" + campaign + "/coupons",
                Tokens.admin(),
                "{\"generate\":{\"count\":" + codes + "}}");
        double seconds = (System.nanoTime() - started) / 1e9;
        long stored = postgres.coupons(campaign).size();
        boolean complete = added.status() == 200 && stored == codes;
        ok &= complete;
        System.out.printf(
            Locale.ROOT,
            "W5 round %d: %d generated codes seeded in %.2f s (%.0f codes/s); answer %d, %d stored%s%n",
            round, codes, seconds, codes / seconds, added.status(), stored,
            complete ? "" : "  INCOMPLETE");
      }
    }
    System.exit(ok ? 0 : 1);
  }
}
