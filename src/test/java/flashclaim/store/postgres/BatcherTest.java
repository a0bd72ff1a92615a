package flashclaim.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The batcher that carries PostgreSQL claims: every item gets its own call's result exactly once,
 * no more calls run at once and no batch is larger than configured, items that arrive while the
 * calls are busy go together, an item whose caller gives up before it is sent is never sent, and a
 * call's failure reaches every caller of its batch.
 */
class BatcherTest {
  private static final Duration FOREVER = Duration.ofSeconds(30);

  @Test
  void everyItemGetsItsOwnResultOnceWithinTheBoundsOfCallsAndBatches() throws Exception {
    int callers = 64;
    int perCaller = 200;
    AtomicInteger running = new AtomicInteger();
    AtomicInteger mostRunning = new AtomicInteger();
    List<Integer> batchSizes = Collections.synchronizedList(new ArrayList<>());
    Map<Integer, Integer> sentTimes = new ConcurrentHashMap<>();
    Batcher<Integer, String> batcher =
        new Batcher<>(
            8,
            3,
            items -> {
              mostRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
              batchSizes.add(items.size());
              Thread.sleep(1); // a round trip: others arrive meanwhile
              List<String> results = new ArrayList<>();
              for (int item : items) {
                sentTimes.merge(item, 1, Integer::sum);
                results.add("r" + item);
              }
              running.decrementAndGet();
              return results;
            });
    ExecutorService pool = Executors.newFixedThreadPool(callers);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Integer>> done = new ArrayList<>();
      for (int c = 0; c < callers; c++) {
        int caller = c;
        done.add(
            pool.submit(
                () -> {
                  start.await();
                  int right = 0;
                  for (int i = 0; i < perCaller; i++) {
                    int item = caller * perCaller + i;
                    if (("r" + item).equals(batcher.send(item, () -> true, () -> FOREVER))) {
                      right++;
                    }
                  }
                  return right;
                }));
      }
      start.countDown();
      int right = 0;
      for (Future<Integer> f : done) {
        right += f.get(60, TimeUnit.SECONDS);
      }
      assertThat(right).isEqualTo(callers * perCaller);
    } finally {
      pool.shutdownNow();
    }
    assertThat(sentTimes).hasSize(callers * perCaller);
    assertThat(sentTimes.values()).containsOnly(1);
    assertThat(mostRunning.get()).isBetween(1, 3);
    assertThat(batchSizes).allMatch(size -> size >= 1 && size <= 8);
    assertThat(batchSizes.stream().mapToInt(Integer::intValue).max().orElse(0))
        .as("items that waited went together")
        .isEqualTo(8);
    assertThat(batchSizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo(callers * perCaller);
  }

  @Test
  void anItemAloneGoesAtOnceAndAlone() throws Exception {
    List<List<String>> calls = new ArrayList<>();
    Batcher<String, String> batcher =
        new Batcher<>(
            32,
            1,
            items -> {
              calls.add(List.copyOf(items));
              return items;
            });
    assertThat(batcher.send("a", () -> true, () -> FOREVER)).isEqualTo("a");
    assertThat(batcher.send("b", () -> true, () -> FOREVER)).isEqualTo("b");
    assertThat(calls).containsExactly(List.of("a"), List.of("b"));
  }

  @Test
  void aCallerWhoGivesUpBeforeItsItemIsSentGetsNullAndTheItemIsNeverSent() throws Exception {
    CountDownLatch inCall = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    List<String> sent = Collections.synchronizedList(new ArrayList<>());
    Batcher<String, String> batcher =
        new Batcher<>(
            4,
            1,
            items -> {
              sent.addAll(items);
              if (items.contains("slow")) {
                inCall.countDown();
                release.await();
              }
              return items;
            });
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<String> slow = pool.submit(() -> batcher.send("slow", () -> true, () -> FOREVER));
      assertThat(inCall.await(10, TimeUnit.SECONDS)).isTrue();
      long giveUpAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
      Future<String> impatient =
          pool.submit(
              () ->
                  batcher.send(
                      "impatient",
                      () -> System.nanoTime() < giveUpAt,
                      () -> Duration.ofNanos(Math.max(0, giveUpAt - System.nanoTime()))));
      assertThat(impatient.get(10, TimeUnit.SECONDS)).isNull();
      release.countDown();
      assertThat(slow.get(10, TimeUnit.SECONDS)).isEqualTo("slow");
      assertThat(batcher.send("later", () -> true, () -> FOREVER)).isEqualTo("later");
    } finally {
      release.countDown();
      pool.shutdownNow();
    }
    assertThat(sent).containsExactly("slow", "later");
  }

  @Test
  void aFailedCallFailsEveryItemOfItsBatchAndTheNextCallGoesOn() throws Exception {
    CountDownLatch inCall = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger calls = new AtomicInteger();
    Batcher<String, String> batcher =
        new Batcher<>(
            4,
            1,
            items -> {
              int call = calls.incrementAndGet();
              if (call == 1) {
                inCall.countDown();
                release.await();
                return items;
              }
              if (call == 2) {
                throw new IllegalStateException("the store failed");
              }
              return items;
            });
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      Future<String> first = pool.submit(() -> batcher.send("first", () -> true, () -> FOREVER));
      assertThat(inCall.await(10, TimeUnit.SECONDS)).isTrue();
      Future<String> a = pool.submit(() -> batcher.send("a", () -> true, () -> FOREVER));
      Future<String> b = pool.submit(() -> batcher.send("b", () -> true, () -> FOREVER));
      awaitQueued(batcher, a, b);
      release.countDown();
      assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("first");
      for (Future<String> failed : List.of(a, b)) {
        assertThatThrownBy(() -> failed.get(10, TimeUnit.SECONDS))
            .hasRootCauseInstanceOf(IllegalStateException.class)
            .hasRootCauseMessage("the store failed");
      }
      assertThat(batcher.send("after", () -> true, () -> FOREVER)).isEqualTo("after");
    } finally {
      release.countDown();
      pool.shutdownNow();
    }
    assertThat(calls.get()).as("a and b went in one call").isEqualTo(3);
  }

  /** An Error in a call (not only an Exception) reaches its caller and frees the call. */
  @Test
  void anErrorInACallReachesItsCallerAndTheNextCallGoesOn() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    Batcher<String, String> batcher =
        new Batcher<>(
            4,
            1,
            items -> {
              if (calls.incrementAndGet() == 1) {
                throw new AssertionError("a broken call");
              }
              return items;
            });
    assertThatThrownBy(() -> batcher.send("first", () -> true, () -> FOREVER))
        .isInstanceOf(AssertionError.class)
        .hasMessage("a broken call");
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<String> second = pool.submit(() -> batcher.send("second", () -> true, () -> FOREVER));
      assertThat(second.get(10, TimeUnit.SECONDS)).as("the call is free again").isEqualTo("second");
    } finally {
      pool.shutdownNow();
    }
  }

  /** Waits until both callers are parked in the batcher (their items queued). */
  private static void awaitQueued(Object batcher, Future<?>... callers) throws Exception {
    long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < giveUp) {
      long parked =
          Thread.getAllStackTraces().keySet().stream()
              .filter(t -> t.getState() == Thread.State.TIMED_WAITING)
              .filter(t -> java.util.concurrent.locks.LockSupport.getBlocker(t) == batcher)
              .count();
      if (parked >= callers.length) {
        return;
      }
      Thread.sleep(5);
    }
    throw new AssertionError("the callers did not queue");
  }
}
