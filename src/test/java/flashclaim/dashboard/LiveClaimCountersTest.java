package flashclaim.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.campaign.Campaign;
import flashclaim.campaign.CampaignId;
import flashclaim.claim.Claim;
import flashclaim.claim.ClaimOutcome;
import flashclaim.testing.MovableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The per-instance counters on their own, with a clock the test moves: exact outcome counts, the
 * sliding window of the rates, the cap on campaigns, and exact totals under concurrent claims.
 */
class LiveClaimCountersTest {
  private static final CampaignId SALE = new CampaignId("sale");
  private static final Duration TOOK = Duration.ofMillis(5);

  private final MovableClock clock = new MovableClock(Instant.parse("2026-11-22T10:00:00.250Z"));

  /** Counters that know every campaign but the made-up ones (ids starting "made-up"). */
  private LiveClaimCounters counters(int maxCampaigns) {
    return new LiveClaimCounters(
        new DashboardConfig(maxCampaigns, Duration.ofSeconds(10), Duration.ofSeconds(1), Duration.ofSeconds(1)),
        clock,
        campaign -> !campaign.value().startsWith("made-up"));
  }

  @Test
  void countsEveryOutcomeButUnknownCampaigns() {
    LiveClaimCounters counters = counters(10);
    Claim claim = new Claim(SALE, new flashclaim.campaign.CouponCode("C-1"), 0, clock.instant());
    counters.claimed(SALE, new ClaimOutcome.Claimed(claim), TOOK);
    counters.claimed(SALE, new ClaimOutcome.Claimed(claim), TOOK);
    counters.claimed(SALE, new ClaimOutcome.AlreadyHeld(claim), TOOK);
    counters.claimed(SALE, new ClaimOutcome.SoldOut(), TOOK);
    counters.claimed(SALE, new ClaimOutcome.NotOpen(Campaign.Window.ENDED, null, null), TOOK);
    counters.claimed(SALE, new ClaimOutcome.Busy(Duration.ofSeconds(1)), TOOK);
    counters.failed(SALE, new RuntimeException("store down"), TOOK);
    CampaignId unknown = new CampaignId("made-up");
    counters.claimed(unknown, new ClaimOutcome.UnknownCampaign(), TOOK);

    LiveClaimCounters.InstanceFigures figures = counters.figures(SALE);
    assertThat(figures.outcomes())
        .containsEntry(Outcome.CLAIMED, 2L)
        .containsEntry(Outcome.ALREADY_HELD, 1L)
        .containsEntry(Outcome.SOLD_OUT, 1L)
        .containsEntry(Outcome.NOT_OPEN, 1L)
        .containsEntry(Outcome.BUSY, 1L)
        .containsEntry(Outcome.FAILED, 1L);
    assertThat(figures.countingSince()).isEqualTo(clock.instant());
    assertThat(counters.figures(unknown).outcomes().values()).containsOnly(0L);
    assertThat(counters.figures(unknown).countingSince()).isNull();
    assertThat(counters.active(10)).extracting(LiveClaimCounters.Active::campaign).containsExactly(SALE);
  }

  @Test
  void campaignsNotKnownToExistTakeNoPlaceWhateverTheirClaimsCameTo() {
    LiveClaimCounters counters = counters(2);
    for (int i = 0; i < 1_000; i++) {
      CampaignId madeUp = new CampaignId("made-up-" + i);
      counters.claimed(madeUp, new ClaimOutcome.UnknownCampaign(), TOOK);
      counters.claimed(madeUp, new ClaimOutcome.Busy(Duration.ofSeconds(1)), TOOK);
      counters.failed(madeUp, new RuntimeException("store down"), TOOK);
    }
    counters.claimed(SALE, new ClaimOutcome.SoldOut(), TOOK);
    CampaignId other = new CampaignId("other-sale");
    counters.failed(other, new RuntimeException("store down"), TOOK);

    assertThat(counters.active(10))
        .extracting(LiveClaimCounters.Active::campaign)
        .containsExactlyInAnyOrder(SALE, other);
    assertThat(counters.figures(SALE).outcomes()).containsEntry(Outcome.SOLD_OUT, 1L);
    assertThat(counters.figures(other).outcomes()).containsEntry(Outcome.FAILED, 1L);
  }

  @Test
  void ratesCountTheCompleteSecondsOfTheWindow() {
    LiveClaimCounters counters = counters(10);
    Claim claim = new Claim(SALE, new flashclaim.campaign.CouponCode("C-1"), 0, clock.instant());
    // second 0: 20 answers, 10 of them new coupons; second 1: 5 sold out
    for (int i = 0; i < 10; i++) {
      counters.claimed(SALE, new ClaimOutcome.Claimed(claim), TOOK);
      counters.claimed(SALE, new ClaimOutcome.AlreadyHeld(claim), TOOK);
    }
    // the running second is not counted yet
    assertThat(counters.figures(SALE).claimsPerSecond()).isZero();
    clock.move(Duration.ofSeconds(1));
    for (int i = 0; i < 5; i++) {
      counters.claimed(SALE, new ClaimOutcome.SoldOut(), TOOK);
    }
    assertThat(counters.figures(SALE).claimsPerSecond()).isEqualTo(2.0); // 20 / 10 s
    assertThat(counters.figures(SALE).assignedPerSecond()).isEqualTo(1.0);
    clock.move(Duration.ofSeconds(1));
    assertThat(counters.figures(SALE).claimsPerSecond()).isEqualTo(2.5); // 25 / 10 s
    // 10 s after second 0 ends it leaves the window; second 1 leaves one second later
    clock.move(Duration.ofSeconds(9));
    assertThat(counters.figures(SALE).claimsPerSecond()).isEqualTo(0.5);
    assertThat(counters.figures(SALE).assignedPerSecond()).isZero();
    clock.move(Duration.ofSeconds(1));
    assertThat(counters.figures(SALE).claimsPerSecond()).isZero();
    // a claim long after reuses the ring: old buckets never come back
    clock.move(Duration.ofSeconds(37));
    counters.claimed(SALE, new ClaimOutcome.SoldOut(), TOOK);
    clock.move(Duration.ofSeconds(1));
    assertThat(counters.figures(SALE).claimsPerSecond()).isEqualTo(0.1);
    assertThat(counters.figures(SALE).outcomes()).containsEntry(Outcome.SOLD_OUT, 6L);
  }

  @Test
  void keepsAtMostTheCapAndTheBusyCampaignsAtIt() {
    LiveClaimCounters counters = counters(3);
    CampaignId busy = new CampaignId("busy");
    for (int i = 0; i < 100; i++) {
      counters.claimed(busy, new ClaimOutcome.SoldOut(), TOOK);
      counters.claimed(new CampaignId("once-" + i), new ClaimOutcome.SoldOut(), TOOK);
      clock.move(Duration.ofMillis(10));
    }

    assertThat(counters.active(10))
        .extracting(a -> a.campaign().value())
        .hasSize(3)
        .startsWith("once-99")
        .contains("busy");
    assertThat(counters.figures(busy).outcomes().get(Outcome.SOLD_OUT)).isEqualTo(100);
    assertThat(counters.figures(new CampaignId("once-0")).outcomes().get(Outcome.SOLD_OUT)).isZero();
  }

  @Test
  void concurrentClaimsAreCountedExactly() throws Exception {
    LiveClaimCounters counters = counters(10);
    Claim claim = new Claim(SALE, new flashclaim.campaign.CouponCode("C-1"), 0, clock.instant());
    int threads = 8;
    int perThread = 10_000;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        done.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < perThread; i++) {
                    counters.claimed(SALE, new ClaimOutcome.Claimed(claim), TOOK);
                  }
                }));
      }
      for (Future<?> f : done) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    clock.move(Duration.ofSeconds(1));
    LiveClaimCounters.InstanceFigures figures = counters.figures(SALE);
    assertThat(figures.outcomes().get(Outcome.CLAIMED)).isEqualTo((long) threads * perThread);
    assertThat(figures.claimsPerSecond()).isEqualTo(threads * perThread / 10.0);
  }
}
