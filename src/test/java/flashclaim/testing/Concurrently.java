package flashclaim.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.IntSupplier;

/** Runs tasks on threads of their own, released at one moment, for the stores' fuzzers. */
public final class Concurrently {
  private Concurrently() {}

  /**
   * Runs {@code n} tasks on {@code n} threads, released together once all are ready, and returns
   * their results in order; a task's failure fails the call.
   */
  public static <T> List<T> run(int n, IntFunction<Callable<T>> task) throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(n);
    try {
      CountDownLatch ready = new CountDownLatch(n);
      CountDownLatch go = new CountDownLatch(1);
      List<Future<T>> futures = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        Callable<T> call = task.apply(i);
        futures.add(
            threads.submit(
                () -> {
                  ready.countDown();
                  go.await();
                  return call.call();
                }));
      }
      assertThat(ready.await(60, TimeUnit.SECONDS)).isTrue();
      go.countDown();
      List<T> results = new ArrayList<>(n);
      for (Future<T> f : futures) {
        results.add(f.get(300, TimeUnit.SECONDS));
      }
      return results;
    } finally {
      threads.shutdownNow();
    }
  }

  /** Sleeps, turning an interrupt into an unchecked exception (interrupt flag kept). */
  public static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Waits, at most 30 s, until {@code value} is {@code expected} (a count that other threads move,
   * e.g. claims in line), and asserts it is.
   */
  public static void awaitValue(IntSupplier value, int expected) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (value.getAsInt() != expected && System.nanoTime() < until) {
      Thread.sleep(2);
    }
    assertThat(value.getAsInt()).isEqualTo(expected);
  }

  /** Waits for the latch at most two minutes. */
  public static void await(CountDownLatch latch) {
    try {
      if (!latch.await(120, TimeUnit.SECONDS)) {
        throw new AssertionError("timed out waiting");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
