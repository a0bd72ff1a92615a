package flashclaim.store.postgres;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Sends items that arrive together in one call: at most {@code maxCalls} calls run at once, each
 * with up to {@code maxBatch} items, and items that arrive while every call is busy wait, in
 * arrival order, for the next one. Nothing waits for a batch to fill: an item that finds a call
 * free goes at once, alone if it is alone, so a batch grows only as long as the calls before it
 * take.
 *
 * <p>No thread of its own: the caller's thread that finds a call free sends the batch at the head
 * of the queue (its own item, or the items before it) and hands each waiting caller its result.
 * A caller gives up while its item still waits ({@code stillWaiting} answers false), never once
 * its item is in a call, whose result it then waits for: a call must therefore end by itself
 * (the database's statement timeout, the connection's network timeout).
 *
 * @param <T> an item
 * @param <R> an item's result
 */
final class Batcher<T, R> {
  /** One call with a batch of items. */
  @FunctionalInterface
  interface Call<T, R> {
    /** The result of every item, in the items' order. */
    List<R> run(List<T> items) throws Exception;
  }

  /** How often a waiting caller looks at the clock of its own deadline (a fake one in tests). */
  private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

  private final int maxBatch;
  private final int maxCalls;
  private final Call<T, R> call;
  private final ReentrantLock lock = new ReentrantLock();
  private final ArrayDeque<Entry<T, R>> queue = new ArrayDeque<>();
  private int calls;

  Batcher(int maxBatch, int maxCalls, Call<T, R> call) {
    if (maxBatch < 1 || maxCalls < 1) {
      throw new IllegalArgumentException("a batch and the calls at once are at least 1");
    }
    this.maxBatch = maxBatch;
    this.maxCalls = maxCalls;
    this.call = call;
  }

  /** An item that waits or is sent, and what became of it. */
  private static final class Entry<T, R> {
    final T item;
    final Thread caller = Thread.currentThread();
    boolean sent; // guarded by the batcher's lock
    volatile boolean done;
    R result;
    Throwable failure;

    Entry(T item) {
      this.item = item;
    }
  }

  /**
   * Sends {@code item} in the next call that is free and returns its result.
   *
   * @param stillWaiting asked while the item waits for a call, at least every 20 ms: false gives
   *     up, and the item is taken out of the queue unsent
   * @param waitLeft how much longer the caller is willing to wait, the longest it parks at once
   * @return the item's result, or null when the caller gave up before its item was sent
   * @throws Exception what the call of its batch threw
   */
  R send(T item, Supplier<Boolean> stillWaiting, Supplier<Duration> waitLeft) throws Exception {
    Entry<T, R> own = new Entry<>(item);
    List<Entry<T, R>> batch;
    Thread wake;
    lock.lock();
    try {
      queue.addLast(own);
      batch = takeBatch();
      wake = headIfCallFree();
    } finally {
      lock.unlock();
    }
    unpark(wake);
    boolean interrupted = false;
    try {
      while (true) {
        if (batch != null) {
          run(batch);
        }
        if (own.done) {
          return outcome(own);
        }
        boolean gaveUp = false;
        lock.lock();
        try {
          batch = own.sent ? null : takeBatch();
          if (batch == null && !own.sent && !stillWaiting.get()) {
            queue.remove(own);
            gaveUp = true;
          }
          wake = headIfCallFree();
        } finally {
          lock.unlock();
        }
        unpark(wake);
        if (gaveUp) {
          return null;
        }
        if (batch == null && !own.done) {
          long park = Math.min(MAX_PARK_NANOS, Math.max(1, waitLeft.get().toNanos()));
          LockSupport.parkNanos(this, park);
          // An interrupt must not end the wait for a call that is running: its result is the
          // caller's (a coupon may have been assigned). Kept and restored at the end.
          interrupted |= Thread.interrupted();
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The items at the head of the queue, if a call is free; null otherwise. Under the lock. */
  private List<Entry<T, R>> takeBatch() {
    if (calls >= maxCalls || queue.isEmpty()) {
      return null;
    }
    List<Entry<T, R>> batch = new ArrayList<>(Math.min(maxBatch, queue.size()));
    while (batch.size() < maxBatch && !queue.isEmpty()) {
      Entry<T, R> next = queue.pollFirst();
      next.sent = true;
      batch.add(next);
    }
    calls++;
    return batch;
  }

  /**
   * The caller at the head of the queue while a call is free, to be woken so that it sends the
   * next batch; null otherwise. Under the lock.
   */
  private Thread headIfCallFree() {
    Entry<T, R> head = calls < maxCalls ? queue.peekFirst() : null;
    return head == null || head.caller == Thread.currentThread() ? null : head.caller;
  }

  private static void unpark(Thread thread) {
    if (thread != null) {
      LockSupport.unpark(thread);
    }
  }

  /** Sends one batch and hands out its results; then wakes the caller at the head of the queue. */
  private void run(List<Entry<T, R>> batch) {
    List<T> items = new ArrayList<>(batch.size());
    for (Entry<T, R> entry : batch) {
      items.add(entry.item);
    }
    List<R> results = null;
    Throwable failure = null;
    try {
      results = call.run(items);
      if (results.size() != items.size()) {
        failure = new IllegalStateException(
            "a call answered " + results.size() + " results for " + items.size() + " items");
      }
    } catch (Throwable e) { // an Error too: else the call's callers would wait for ever
      failure = e;
    }
    Thread next;
    lock.lock();
    try {
      calls--;
      next = headIfCallFree();
    } finally {
      lock.unlock();
    }
    for (int i = 0; i < batch.size(); i++) {
      Entry<T, R> entry = batch.get(i);
      if (failure == null) {
        entry.result = results.get(i);
      } else {
        entry.failure = failure;
      }
      entry.done = true; // publishes result and failure
      if (entry.caller != Thread.currentThread()) {
        LockSupport.unpark(entry.caller);
      }
    }
    unpark(next); // a call is free: the head sends the next batch
  }

  private static <T, R> R outcome(Entry<T, R> entry) throws Exception {
    if (entry.failure instanceof Error error) {
      throw error;
    }
    if (entry.failure != null) {
      throw (Exception) entry.failure;
    }
    return entry.result;
  }
}
