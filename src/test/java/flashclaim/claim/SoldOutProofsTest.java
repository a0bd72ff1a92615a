package flashclaim.claim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import flashclaim.StoreException;
import flashclaim.campaign.Campaign;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CampaignStore;
import flashclaim.campaign.PoolAdditions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The rules of {@link SoldOutProofs} on their own, against a counter whose reads the test holds
 * and releases: what makes a proof, what breaks it, and which read may serve which claim. The
 * stores' counters and the claims through several instances are tested in {@link
 * SoldOutFastPathContract}.
 */
class SoldOutProofsTest {
  private static final CampaignId CAMPAIGN = new CampaignId("sold-out");
  private final Counter counter = new Counter();
  private final SoldOutProofs proofs =
      new SoldOutProofs(counter, new SoldOutConfig(true, 100, 1000, 10, Duration.ZERO, Duration.ZERO, 16), Clock.systemUTC(), READERS);
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private static final ExecutorService READERS = Executors.newCachedThreadPool();

  @AfterEach
  void stop() {
    counter.releaseAll();
    threads.shutdownNow();
  }

  @Test
  void aPoolQueryAfterAQuietReadIsAProofUntilTheCountMoves() {
    assertThat(proofs.check(CAMPAIGN, later())).isEqualTo(new SoldOutProofs.Check.Unproven(null));
    assertThat(proofs.reads()).as("no read before the pool was seen empty").isZero();
    proofs.noneLeft(CAMPAIGN, new SoldOutProofs.Check.Unproven(null));

    SoldOutProofs.Check first = proofs.check(CAMPAIGN, later());
    assertThat(first).isEqualTo(new SoldOutProofs.Check.Unproven(new PoolAdditions(1, false)));
    proofs.noneLeft(CAMPAIGN, first);
    assertThat(proofs.check(CAMPAIGN, later())).isInstanceOf(SoldOutProofs.Check.Proven.class);
    assertThat(proofs.check(CAMPAIGN, later())).isInstanceOf(SoldOutProofs.Check.Proven.class);

    counter.set(new PoolAdditions(2, false));
    assertThat(proofs.check(CAMPAIGN, later()))
        .isEqualTo(new SoldOutProofs.Check.Unproven(new PoolAdditions(2, false)));
    assertThat(proofs.reads()).isEqualTo(4);
  }

  @Test
  void aQueryThatBeganAfterAnUnchangedReadReturnedProvesTheSellOut() throws Exception {
    assertThat(proofs.check(CAMPAIGN, later(), Instant.now()))
        .as("not watched")
        .isEqualTo(new SoldOutProofs.Check.Unproven(null));
    Instant beforeFirstRead = Instant.now();
    Thread.sleep(2);
    proofs.suspect(CAMPAIGN); // a claim was answered busy: a read no claim waits for
    waitForReads(proofs, 1);
    Instant afterFirstRead = Instant.now();

    // no claim of a suspected campaign waits for a read until a query may make a proof
    assertThat(proofs.check(CAMPAIGN, later(), null)).isEqualTo(new SoldOutProofs.Check.Unproven(null));
    assertThat(proofs.check(CAMPAIGN, later(), beforeFirstRead))
        .as("a query that began before the first read of the value returned")
        .isEqualTo(new SoldOutProofs.Check.Unproven(null));
    assertThat(proofs.reads()).isEqualTo(1);
    // one that began after it did, with the claim's own read the same
    assertThat(proofs.check(CAMPAIGN, later(), afterFirstRead))
        .isEqualTo(new SoldOutProofs.Check.Proven(new PoolAdditions(1, false)));
    assertThat(proofs.reads()).isEqualTo(2);
    assertThat(proofs.check(CAMPAIGN, later())).as("the proof is kept").isInstanceOf(SoldOutProofs.Check.Proven.class);
    assertThat(proofs.hasProof(CAMPAIGN)).isTrue();
  }

  @Test
  void aMovedCountOrAnAdditionInProgressStartsTheRunOfUnchangedReadsAgain() throws Exception {
    proofs.suspect(CAMPAIGN);
    waitForReads(proofs, 1);
    Instant queryBegan = Instant.now();
    Thread.sleep(2); // the reads below return strictly later

    counter.set(new PoolAdditions(2, false)); // coupons added after the query began
    assertThat(proofs.check(CAMPAIGN, later(), queryBegan))
        .as("the claim's read saw another count")
        .isEqualTo(new SoldOutProofs.Check.Unproven(new PoolAdditions(2, false)));
    assertThat(proofs.check(CAMPAIGN, later(), queryBegan))
        .as("the run of 2 began after the query")
        .isEqualTo(new SoldOutProofs.Check.Unproven(null));

    counter.set(new PoolAdditions(2, true));
    proofs.suspect(CAMPAIGN);
    waitForReads(proofs, 3);
    assertThat(proofs.check(CAMPAIGN, later(), Instant.now()))
        .as("an addition in progress")
        .isEqualTo(new SoldOutProofs.Check.Unproven(null));

    counter.set(new PoolAdditions(2, false)); // same count as before the addition was in progress
    Instant betweenRuns = Instant.now();
    Thread.sleep(2);
    proofs.suspect(CAMPAIGN);
    waitForReads(proofs, 4);
    assertThat(proofs.check(CAMPAIGN, later(), betweenRuns))
        .as("the run began again after the addition in progress")
        .isEqualTo(new SoldOutProofs.Check.Unproven(null));
    assertThat(proofs.check(CAMPAIGN, later(), Instant.now()))
        .isInstanceOf(SoldOutProofs.Check.Proven.class);
  }

  @Test
  void suspicionsReadAtMostOncePerSuspectReadInterval() throws Exception {
    SoldOutProofs spaced =
        new SoldOutProofs(
            counter,
            new SoldOutConfig(true, 100, 1000, 10, Duration.ZERO, Duration.ofSeconds(10), 16),
            Clock.systemUTC(),
            READERS);
    spaced.suspect(CAMPAIGN);
    waitForReads(spaced, 1);
    for (int i = 0; i < 10; i++) {
      spaced.suspect(CAMPAIGN);
    }
    Thread.sleep(50);
    assertThat(spaced.reads()).isEqualTo(1);
  }

  @Test
  void aClaimThatWinsDropsTheProofAndTheReads() throws Exception {
    proofs.suspect(CAMPAIGN);
    waitForReads(proofs, 1);
    assertThat(proofs.check(CAMPAIGN, later(), Instant.now())).isInstanceOf(SoldOutProofs.Check.Proven.class);
    proofs.found(CAMPAIGN);
    assertThat(proofs.hasProof(CAMPAIGN)).isFalse();
    assertThat(proofs.check(CAMPAIGN, later())).isEqualTo(new SoldOutProofs.Check.Unproven(null));
    assertThat(proofs.reads()).isEqualTo(2);
  }

  private static void waitForReads(SoldOutProofs proofs, long reads) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (proofs.reads() < reads && System.nanoTime() < until) {
      Thread.sleep(1);
    }
    assertThat(proofs.reads()).isEqualTo(reads);
    Thread.sleep(5); // the read's result is recorded just after it is counted
  }

  @Test
  void anAdditionInProgressMakesNoProofAndBreaksOne() {
    proofs.noneLeft(CAMPAIGN, new SoldOutProofs.Check.Unproven(null));
    counter.set(new PoolAdditions(1, true));
    SoldOutProofs.Check during = proofs.check(CAMPAIGN, later());
    proofs.noneLeft(CAMPAIGN, during);
    assertThat(proofs.check(CAMPAIGN, later())).isInstanceOf(SoldOutProofs.Check.Unproven.class);

    counter.set(new PoolAdditions(1, false));
    SoldOutProofs.Check quiet = proofs.check(CAMPAIGN, later());
    assertThat(quiet).isInstanceOf(SoldOutProofs.Check.Unproven.class);
    proofs.noneLeft(CAMPAIGN, quiet);
    assertThat(proofs.check(CAMPAIGN, later())).isInstanceOf(SoldOutProofs.Check.Proven.class);

    counter.set(new PoolAdditions(1, true)); // an addition began after the proof, same count
    assertThat(proofs.check(CAMPAIGN, later())).isInstanceOf(SoldOutProofs.Check.Unproven.class);
  }

  @Test
  void aCouponWonDropsTheProof() {
    prove();
    proofs.found(CAMPAIGN);
    assertThat(proofs.check(CAMPAIGN, later())).isEqualTo(new SoldOutProofs.Check.Unproven(null));
  }

  /**
   * Claims that arrive while a read is in flight do not take its answer (it started before them);
   * they share the next read, one read for all of them. Here the count moves while the first read
   * is in flight: the claims that arrived meanwhile must see the new count, never the proof.
   */
  @Test
  void claimsShareOnlyAReadThatStartedAfterTheyArrived() throws Exception {
    prove();
    long readsBefore = proofs.reads();
    counter.holdNextRead();
    Future<SoldOutProofs.Check> first = threads.submit(() -> proofs.check(CAMPAIGN, later()));
    counter.awaitHeldRead();

    int late = 5;
    List<Future<SoldOutProofs.Check>> lateClaims = new ArrayList<>();
    for (int i = 0; i < late; i++) {
      lateClaims.add(threads.submit(() -> proofs.check(CAMPAIGN, later())));
    }
    awaitWaiting(late + 1); // the first claim waits too: all the late ones must be waiting
    counter.set(new PoolAdditions(2, false)); // coupons added after the first read started
    counter.slowDownReads(Duration.ofSeconds(2)); // the next read is still in flight when all join
    counter.releaseHeldRead();

    assertThat(first.get(30, TimeUnit.SECONDS)).isInstanceOf(SoldOutProofs.Check.Proven.class);
    for (Future<SoldOutProofs.Check> claim : lateClaims) {
      assertThat(claim.get(30, TimeUnit.SECONDS))
          .isEqualTo(new SoldOutProofs.Check.Unproven(new PoolAdditions(2, false)));
    }
    assertThat(proofs.reads() - readsBefore).as("the first read, and one shared by the late claims").isEqualTo(2);
  }

  /**
   * With a read interval, a claim that finds no read in flight plans one for the interval's end;
   * claims that arrive before then join it, and the read must not start before its planned moment:
   * coupons added after the first claim arrived, before a later one did, must break the proof for
   * both.
   */
  @Test
  void aPlannedReadStartsNoSoonerThanPlannedAndServesEveryClaimUntilThen() throws Exception {
    Duration interval = Duration.ofSeconds(1);
    SoldOutProofs spaced = provenWithReadInterval(interval); // its last read: now
    long readsBefore = spaced.reads();
    long started = System.nanoTime();

    Future<SoldOutProofs.Check> first = threads.submit(() -> spaced.check(CAMPAIGN, later()));
    Thread.sleep(200);
    counter.set(new PoolAdditions(2, false)); // after the first claim arrived
    Thread.sleep(200);
    SoldOutProofs.Check second = spaced.check(CAMPAIGN, later()); // arrives after the addition

    assertThat(second).isEqualTo(new SoldOutProofs.Check.Unproven(new PoolAdditions(2, false)));
    assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo(second);
    assertThat(spaced.reads() - readsBefore).as("one read for both").isEqualTo(1);
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(interval.multipliedBy(2));
  }

  /** However many claims arrive, the counter is read at most once per interval. */
  @Test
  void claimsInAStreamShareOneReadPerInterval() throws Exception {
    SoldOutProofs spaced = provenWithReadInterval(Duration.ofMillis(50));
    long readsBefore = spaced.reads();
    long started = System.nanoTime();
    List<Future<Integer>> claimers = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      claimers.add(
          threads.submit(
              () -> {
                int proven = 0;
                while (System.nanoTime() - started < Duration.ofSeconds(1).toNanos()) {
                  assertThat(spaced.check(CAMPAIGN, later())).isInstanceOf(SoldOutProofs.Check.Proven.class);
                  proven++;
                }
                return proven;
              }));
    }
    int claims = 0;
    for (Future<Integer> claimer : claimers) {
      claims += claimer.get(30, TimeUnit.SECONDS);
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    long reads = spaced.reads() - readsBefore;
    assertThat(claims).isGreaterThan(8);
    assertThat(reads).as("%d claims in %.2f s", claims, seconds).isLessThanOrEqualTo((long) Math.ceil(seconds / 0.05) + 1);
  }

  @Test
  void aClaimWaitsForTheCounterNoLongerThanItsDeadline() throws Exception {
    prove();
    counter.holdNextRead();
    Future<SoldOutProofs.Check> first = threads.submit(() -> proofs.check(CAMPAIGN, later()));
    counter.awaitHeldRead();

    SoldOutProofs.Check waited =
        proofs.check(CAMPAIGN, Instant.now().plus(Duration.ofMillis(200)));

    assertThat(waited).isInstanceOf(SoldOutProofs.Check.TimedOut.class);
    counter.releaseHeldRead();
    assertThat(first.get(30, TimeUnit.SECONDS)).isInstanceOf(SoldOutProofs.Check.Proven.class);
  }

  @Test
  void aFailedReadFailsTheClaimAndTheNextReadStartsAfresh() {
    prove();
    counter.failNextRead();
    assertThatThrownBy(() -> proofs.check(CAMPAIGN, later())).isInstanceOf(StoreException.class);
    assertThat(proofs.check(CAMPAIGN, later())).isInstanceOf(SoldOutProofs.Check.Proven.class);
  }

  @Test
  void withoutTheFastPathNothingIsReadOrProven() {
    SoldOutProofs off = new SoldOutProofs(counter, new SoldOutConfig(false, 100, 1000, 10, Duration.ZERO, Duration.ZERO, 16), Clock.systemUTC(), READERS);
    off.noneLeft(CAMPAIGN, new SoldOutProofs.Check.Unproven(new PoolAdditions(1, false)));
    assertThat(off.check(CAMPAIGN, later())).isEqualTo(new SoldOutProofs.Check.Unproven(null));
    assertThat(off.reads()).isZero();
  }

  /** Proofs with the given read interval, holding a proof with the counter at (1, quiet). */
  private SoldOutProofs provenWithReadInterval(Duration interval) {
    SoldOutProofs spaced =
        new SoldOutProofs(counter, new SoldOutConfig(true, 100, 1000, 10, interval, Duration.ZERO, 16), Clock.systemUTC(), READERS);
    spaced.noneLeft(CAMPAIGN, new SoldOutProofs.Check.Unproven(null));
    spaced.noneLeft(CAMPAIGN, spaced.check(CAMPAIGN, later()));
    return spaced;
  }

  /** Makes a proof with the counter at (1, quiet). */
  private void prove() {
    proofs.noneLeft(CAMPAIGN, new SoldOutProofs.Check.Unproven(null));
    proofs.noneLeft(CAMPAIGN, proofs.check(CAMPAIGN, later()));
    assertThat(proofs.check(CAMPAIGN, later())).isInstanceOf(SoldOutProofs.Check.Proven.class);
  }

  private static Instant later() {
    return Instant.now().plus(Duration.ofSeconds(30));
  }

  /** Until {@code n} threads of the pool wait in {@link SoldOutProofs} (for the held read). */
  private void awaitWaiting(int n) throws InterruptedException {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
    while (waitingInProofs() < n) {
      assertThat(Instant.now()).as("claims waiting for the read").isBefore(deadline);
      Thread.sleep(10);
    }
  }

  private static long waitingInProofs() {
    return Thread.getAllStackTraces().entrySet().stream()
        .filter(e -> e.getKey().getState() == Thread.State.TIMED_WAITING)
        .filter(
            e ->
                java.util.Arrays.stream(e.getValue())
                    .anyMatch(f -> f.getMethodName().equals("awaitDone")))
        .count();
  }

  /** A campaign counter whose reads the test can hold, slow down or fail. */
  private static final class Counter implements CampaignStore {
    private final AtomicReference<PoolAdditions> value =
        new AtomicReference<>(new PoolAdditions(1, false));
    private final AtomicReference<CountDownLatch> hold = new AtomicReference<>();
    private volatile CountDownLatch holding;
    private final CountDownLatch held = new CountDownLatch(1);
    private final AtomicInteger failures = new AtomicInteger();
    private volatile Duration slow = Duration.ZERO;

    void set(PoolAdditions additions) {
      value.set(additions);
    }

    void holdNextRead() {
      hold.set(new CountDownLatch(1));
    }

    void awaitHeldRead() throws InterruptedException {
      assertThat(held.await(30, TimeUnit.SECONDS)).isTrue();
    }

    void releaseHeldRead() {
      releaseAll();
    }

    void releaseAll() {
      CountDownLatch latch = holding;
      if (latch != null) {
        latch.countDown();
      }
    }

    void slowDownReads(Duration by) {
      slow = by;
    }

    void failNextRead() {
      failures.incrementAndGet();
    }

    @Override
    public Optional<PoolAdditions> couponsAdded(CampaignId id) {
      PoolAdditions seen = value.get(); // as of the read's start
      if (failures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        throw new StoreException("the counter could not be read", null);
      }
      CountDownLatch latch = hold.getAndSet(null);
      try {
        if (latch != null) {
          holding = latch;
          held.countDown();
          latch.await(60, TimeUnit.SECONDS);
        } else if (!slow.isZero()) {
          Thread.sleep(slow.toMillis());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return Optional.of(seen);
    }

    @Override
    public boolean create(Campaign campaign) {
      throw new UnsupportedOperationException("only the counter is read here");
    }

    @Override
    public Optional<Campaign> find(CampaignId id, flashclaim.Deadline deadline) {
      throw new UnsupportedOperationException("only the counter is read here");
    }

    @Override
    public flashclaim.campaign.CampaignPage list(
        int limit, Optional<flashclaim.campaign.CampaignPage.After> after) {
      throw new UnsupportedOperationException("only the counter is read here");
    }

    @Override
    public Optional<Campaign> update(
        CampaignId id, java.util.function.Function<Campaign, Optional<Update>> change) {
      throw new UnsupportedOperationException("only the counter is read here");
    }

    @Override
    public flashclaim.campaign.ChangePage changes(
        CampaignId id, int limit, java.util.OptionalLong below) {
      throw new UnsupportedOperationException("only the counter is read here");
    }
  }
}
