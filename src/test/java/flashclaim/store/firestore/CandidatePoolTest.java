package flashclaim.store.firestore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.Timestamp;
import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.FirestoreOptions;
import flashclaim.StoreException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The candidate pool's sharing rules, with a probe that stands in for the query (the pool never
 * touches the store itself; the document references are never sent anywhere).
 */
class CandidatePoolTest {
  private static Firestore refs;
  private final Clock clock = Clock.systemUTC();
  private final ExecutorService probes = Executors.newFixedThreadPool(2);
  private final ExecutorService claims = Executors.newFixedThreadPool(20);
  private final ContentionCounters counters = new ContentionCounters();

  @BeforeAll
  static void references() {
    refs =
        FirestoreOptions.newBuilder()
            .setProjectId("candidate-pool-test")
            .setEmulatorHost("127.0.0.1:9")
            .build()
            .getService();
  }

  @AfterAll
  static void closeReferences() throws Exception {
    refs.close();
  }

  @AfterEach
  void stop() {
    probes.shutdownNow();
    claims.shutdownNow();
  }

  @Test
  void concurrentClaimsShareOneProbeAndEachGetsADifferentCoupon() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger probesRun = new AtomicInteger();
    CandidatePool pool = pool(0);
    CandidatePool.Probe probe =
        (limit, soldOutBefore) -> {
          probesRun.incrementAndGet();
          await(release);
          return coupons(0, 100);
        };
    Instant started = clock.instant();
    List<Future<CandidatePool.Candidate>> taken = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      taken.add(claims.submit(() -> pool.take(started, in(Duration.ofSeconds(10)), probe)));
    }
    Thread.sleep(100); // let every claim reach the pool while the probe is held
    release.countDown();
    Set<String> codes = new HashSet<>();
    for (Future<CandidatePool.Candidate> f : taken) {
      codes.add(f.get(10, TimeUnit.SECONDS).code());
    }
    assertThat(codes).hasSize(20);
    assertThat(probesRun).hasValue(1);
    assertThat(pool.queued()).isEqualTo(80);
  }

  @Test
  void refillsInTheBackgroundWhenItRunsLow() throws Exception {
    AtomicInteger probesRun = new AtomicInteger();
    CountDownLatch second = new CountDownLatch(1);
    CandidatePool pool = pool(5);
    CandidatePool.Probe probe =
        (limit, soldOutBefore) -> {
          int n = probesRun.incrementAndGet();
          if (n == 2) {
            second.countDown();
          }
          return coupons(n * 100, 10);
        };
    Instant started = clock.instant();
    for (int i = 0; i < 5; i++) {
      pool.take(started, in(Duration.ofSeconds(5)), probe); // 10 -> 5 left: still enough
    }
    assertThat(probesRun).hasValue(1);
    pool.take(started, in(Duration.ofSeconds(5)), probe); // 4 left: the next probe starts
    assertThat(second.await(5, TimeUnit.SECONDS)).isTrue();
    waitFor(() -> pool.queued() == 14);
    assertThat(probesRun).hasValue(2);
  }

  @Test
  void neverQueuesAgainACouponItHandedOutRecently() throws Exception {
    CandidatePool pool = pool(0);
    CandidatePool.Probe sameThree = (limit, soldOutBefore) -> coupons(0, 3); // commits not landed: still unassigned
    Instant started = clock.instant();
    Set<String> codes = new HashSet<>();
    for (int i = 0; i < 3; i++) {
      codes.add(pool.take(started, in(Duration.ofSeconds(5)), sameThree).code());
    }
    assertThat(codes).hasSize(3);
    // every probe now sees only coupons already handed out: no candidate until the deadline
    assertThat(pool.take(started, in(Duration.ofMillis(300)), sameThree)).isNull();
  }

  @Test
  void soldOutNeedsAProofThatStartedAfterTheClaim() throws Exception {
    AtomicInteger probesRun = new AtomicInteger();
    List<List<CandidatePool.Candidate>> answers =
        new ArrayList<>(List.of(List.of(), coupons(500, 1), coupons(600, 1)));
    List<Boolean> hints = new ArrayList<>();
    CandidatePool pool = pool(0);
    CandidatePool.Probe probe =
        (limit, soldOutBefore) -> {
          probesRun.incrementAndGet();
          hints.add(soldOutBefore);
          return answers.remove(0);
        };
    Instant first = clock.instant();
    assertThat(pool.take(first, in(Duration.ofSeconds(5)), probe))
        .isSameAs(CandidatePool.NONE_LEFT);
    // a claim that started before the proof shares it without a probe of its own
    assertThat(pool.take(first, in(Duration.ofSeconds(5)), probe))
        .isSameAs(CandidatePool.NONE_LEFT);
    assertThat(probesRun).hasValue(1);
    // a later claim probes again and finds the coupon added after the sell-out
    Thread.sleep(5);
    CandidatePool.Candidate later = pool.take(clock.instant(), in(Duration.ofSeconds(5)), probe);
    assertThat(later.code()).isEqualTo("c500");
    assertThat(probesRun).hasValue(2);
    // the probe after a sell-out is told so (it may run only the proof), the one after that not
    pool.take(clock.instant(), in(Duration.ofSeconds(5)), probe);
    assertThat(hints).containsExactly(false, true, false);
  }

  @Test
  void aProbeThatOutlivesItsClaimStillTellsWhenItFoundThePoolEmpty() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    List<List<CandidatePool.Candidate>> answers = new ArrayList<>(List.of(List.of(), coupons(700, 1)));
    CandidatePool pool = pool(0);
    CandidatePool.Probe slow =
        (limit, soldOutBefore) -> {
          await(release);
          return answers.remove(0);
        };
    assertThat(pool.foundEmptyFrom()).isNull();
    Instant before = clock.instant();

    assertThat(pool.take(before, in(Duration.ofMillis(100)), slow)).as("gave up at its deadline").isNull();
    Instant gaveUp = clock.instant();
    release.countDown();
    waitFor(() -> pool.foundEmptyFrom() != null);

    assertThat(pool.foundEmptyFrom()).isBetween(before, gaveUp);
    // a probe that finds coupons again clears it
    pool.take(clock.instant(), in(Duration.ofSeconds(5)), slow);
    assertThat(pool.foundEmptyFrom()).isNull();
  }

  @Test
  void aClaimThatWaitedForTheProbeThatFoundThePoolEmptyIsToldWhenItBeganAndProbesOnlyWhenItTakesAgain()
      throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger probesRun = new AtomicInteger();
    List<List<CandidatePool.Candidate>> answers = new ArrayList<>(List.of(List.of(), coupons(800, 1)));
    CandidatePool pool = pool(0);
    CandidatePool.Probe slow =
        (limit, soldOutBefore) -> {
          probesRun.incrementAndGet();
          await(release);
          return answers.remove(0);
        };
    Instant first = clock.instant();
    Future<CandidatePool.Candidate> before =
        claims.submit(() -> pool.take(first, in(Duration.ofSeconds(10)), slow));
    waitFor(() -> probesRun.get() == 1);
    Thread.sleep(5);
    Instant second = clock.instant(); // after the probe began
    Future<CandidatePool.Candidate> during =
        claims.submit(() -> pool.take(second, in(Duration.ofSeconds(10)), slow));
    Thread.sleep(50); // the second claim waits for the same probe
    release.countDown();

    assertThat(before.get(10, TimeUnit.SECONDS)).isSameAs(CandidatePool.NONE_LEFT);
    assertThat(during.get(10, TimeUnit.SECONDS)).isSameAs(CandidatePool.EMPTY_BEFORE);
    assertThat(pool.foundEmptyFrom()).isBetween(first, second);
    assertThat(probesRun).as("no probe of its own").hasValue(1);
    // taking again, it started after that probe ended: a probe of its own finds the coupon added
    Thread.sleep(5);
    assertThat(pool.take(clock.instant(), in(Duration.ofSeconds(5)), slow).code()).isEqualTo("c800");
    assertThat(probesRun).hasValue(2);
  }

  @Test
  void runsOutWhenAProbeFindsFewerCouponsThanItAskedFor() throws Exception {
    List<Integer> sizes = List.of(120, 7, 120, 0); // what each probe finds; it asks for 20 to 100
    AtomicInteger probesRun = new AtomicInteger();
    // probes run on the taking thread: with a probe in the background, the takes could drain its
    // candidates and start the next probe before the test saw the flag it set
    CandidatePool pool =
        new CandidatePool(Duration.ofSeconds(30), 10, 0, 100, Runnable::run, clock, counters);
    CandidatePool.Probe probe =
        (limit, soldOutBefore) -> {
          int i = probesRun.getAndIncrement();
          return coupons(i * 1_000, i < sizes.size() ? sizes.get(i) : 0);
        };
    assertThat(pool.runningOut()).isFalse();
    pool.take(clock.instant(), in(Duration.ofSeconds(5)), probe);
    assertThat(pool.runningOut()).as("found more than it asked for").isFalse();
    takeUntilProbe(2, pool, probe, probesRun);
    assertThat(pool.runningOut()).as("found 7").isTrue();
    takeUntilProbe(3, pool, probe, probesRun);
    assertThat(pool.runningOut()).as("coupons were added").isFalse();
    takeUntilProbe(4, pool, probe, probesRun);
    assertThat(pool.runningOut()).as("found none").isTrue();
    assertThat(pool.foundEmptyFrom()).isNotNull();
  }

  /**
   * Takes candidates until probe number {@code n} has run (the pool's probes run on the taking
   * thread): a take that leaves fewer than the pool's refill-below of 10 starts one.
   */
  private void takeUntilProbe(
      int n, CandidatePool pool, CandidatePool.Probe probe, AtomicInteger probesRun)
      throws Exception {
    while (probesRun.get() < n) {
      pool.take(clock.instant(), in(Duration.ofSeconds(5)), probe);
    }
  }

  @Test
  void aFailedProbeFailsItsWaitersAndTheNextClaimProbesAgain() throws Exception {
    AtomicInteger probesRun = new AtomicInteger();
    CandidatePool pool = pool(0);
    CandidatePool.Probe probe =
        (limit, soldOutBefore) -> {
          if (probesRun.incrementAndGet() == 1) {
            throw new StoreException("the store is down", null);
          }
          return coupons(0, 1);
        };
    Instant started = clock.instant();
    assertThatThrownBy(() -> pool.take(started, in(Duration.ofSeconds(5)), probe))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("the store is down");
    assertThat(pool.take(started, in(Duration.ofSeconds(5)), probe).code()).isEqualTo("c0");
  }

  @Test
  void dropsCandidatesOlderThanTheMaxAge() throws Exception {
    CandidatePool pool =
        new CandidatePool(Duration.ofMillis(50), 0, 0, 1_000, probes, clock, counters);
    AtomicInteger probesRun = new AtomicInteger();
    CandidatePool.Probe probe = (limit, soldOutBefore) -> coupons(probesRun.getAndIncrement() * 100, 2);
    Instant started = clock.instant();
    assertThat(pool.take(started, in(Duration.ofSeconds(5)), probe).code()).isEqualTo("c0");
    Thread.sleep(100); // c1 is now too old to be a hint
    assertThat(pool.take(started, in(Duration.ofSeconds(5)), probe).code()).isEqualTo("c100");
  }

  @Test
  void probesReadWhatTheRecentClaimsTookWithinBounds() throws Exception {
    List<Integer> limits = new ArrayList<>();
    CandidatePool pool =
        new CandidatePool(Duration.ofSeconds(30), 10, 0, 100, probes, clock, counters);
    AtomicInteger next = new AtomicInteger();
    CandidatePool.Probe probe =
        (limit, soldOutBefore) -> {
          synchronized (limits) {
            limits.add(limit);
          }
          return coupons(next.getAndAdd(limit), limit);
        };
    Instant started = clock.instant();
    pool.take(started, in(Duration.ofSeconds(5)), probe); // nothing taken yet: 2 x refill-below
    for (int i = 0; i < 300; i++) {
      pool.take(started, in(Duration.ofSeconds(5)), probe);
    }
    waitFor(() -> pool.queued() >= 10);
    synchronized (limits) {
      assertThat(limits.get(0)).isEqualTo(20);
      assertThat(limits).allSatisfy(l -> assertThat(l).isBetween(20, 100)).contains(100);
    }
  }

  @Test
  void theFirstProbeReadsAtLeastFirstProbeAndTheNextOnesWhatTheClaimsTook() throws Exception {
    List<Integer> limits = new ArrayList<>();
    CandidatePool pool =
        new CandidatePool(Duration.ofSeconds(30), 10, 300, 1_000, Runnable::run, clock, counters);
    AtomicInteger next = new AtomicInteger();
    CandidatePool.Probe probe =
        (limit, soldOutBefore) -> {
          limits.add(limit);
          return coupons(next.getAndAdd(limit), limit);
        };
    while (limits.size() < 2) {
      pool.take(clock.instant(), in(Duration.ofSeconds(5)), probe);
    }
    // the second probe started when 9 were left: the 291 taken, not the first probe's 300
    assertThat(limits).containsExactly(300, 291);
  }

  @Test
  void countsTheClaimsThatWaitedForAProbeAndHowLong() throws Exception {
    CandidatePool pool = pool(0);
    CandidatePool.Probe slow =
        (limit, soldOutBefore) -> {
          sleep(200);
          return coupons(0, 2);
        };
    pool.take(clock.instant(), in(Duration.ofSeconds(5)), slow);
    assertThat(counters.candidateWaits()).isEqualTo(1);
    assertThat(counters.candidateWaitSeconds()).isBetween(0.2, 5.0);
    pool.take(clock.instant(), in(Duration.ofSeconds(5)), slow); // the second candidate, queued
    assertThat(counters.candidateWaits()).as("a queued candidate is no wait").isEqualTo(1);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private CandidatePool pool(int refillBelow) {
    return new CandidatePool(
        Duration.ofSeconds(30), refillBelow, 0, 1_000, probes, clock, counters);
  }

  private List<CandidatePool.Candidate> coupons(int from, int count) {
    List<CandidatePool.Candidate> found = new ArrayList<>();
    for (int i = from; i < from + count; i++) {
      found.add(
          new CandidatePool.Candidate(
              refs.document("campaigns/c/coupons/" + i), "c" + i, Timestamp.now(), clock.instant()));
    }
    return found;
  }

  private Instant in(Duration d) {
    return clock.instant().plus(d);
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void waitFor(Supplier<Boolean> condition) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!condition.get() && System.nanoTime() < until) {
      Thread.sleep(5);
    }
    assertThat(condition.get()).isTrue();
  }
}
