package flashclaim.claim;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.Claimer;
import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.MultiInstanceTest;
import flashclaim.testing.StoreBackend;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The original range-scan design ({@code seed}) on a small pool through 3 instances. It is slow
 * and gives false sold-outs under contention by design (the benchmark measures both), but it must
 * never assign a coupon twice (G1) nor leave a coupon without its claim record (G5).
 */
class SeedStrategyTest extends MultiInstanceTest {
  private final StoreBackend backend = new FirestoreBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }

  @Override
  protected Map<String, Object> instanceProperties() {
    return Map.of("flashclaim.firestore.claim.strategy", "seed", "flashclaim.claim.deadline", "10s");
  }

  @Test
  void neverAssignsACouponTwice() throws Exception {
    int coupons = 10;
    String campaign = newCampaign(1, coupons);

    // 15 users, 6 at a time over 3 instances: enough to make its transactions collide.
    List<Claimer.Result> results =
        runAll(
            15, 6, i -> () -> Claimer.claimUntilFinal(instance(i), campaign, "seed-user-" + i));

    // A 200 comes only after a retry: the attempt answered 503 had committed, and the retry finds
    // the user's claim (G4).
    assertThat(results)
        .allSatisfy(
            r ->
                assertThat(r.status() == 201 || r.status() == 410 || (r.status() == 200 && r.retries() > 0))
                    .as("%s: %d after %d retries", r.user(), r.status(), r.retries())
                    .isTrue());
    List<String> codes =
        results.stream()
            .filter(r -> r.status() == 201 || r.status() == 200)
            .map(Claimer.Result::code)
            .toList();
    assertThat(codes).isNotEmpty();
    assertThat(new HashSet<>(codes)).hasSameSizeAs(codes); // G1 as the users saw it
    assertStoreConsistent(campaign, codes.size()); // G1, G5 in the store
    assertAuditOk(campaign, codes.size());
  }
}
