package flashclaim.lock;

import static flashclaim.testing.Concurrently.await;
import static flashclaim.testing.Concurrently.sleep;
import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.Concurrently;
import flashclaim.testing.StoreContract;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The contract of a {@link LockStore}, run against the real store by a subclass per store, with
 * {@value #CLIENTS} store clients of their own (as {@value #CLIENTS} instances have) and no
 * service: of concurrent writers that saw one record at most one succeeds; a lease that was taken
 * over can be neither renewed nor released; and, with a {@link LockService} over each client,
 * mutual exclusion with exact totals and growing fencing tokens, renewal, takeover of the lease of
 * a killed process, and a stale holder that learns it lost the lock.
 */
public abstract class LockStoreContract extends StoreContract {
  private static final Duration LONG_WAIT = Duration.ofSeconds(120);
  private static final LockConfig CONFIG =
      new LockConfig(
          Duration.ofSeconds(10),
          Duration.ofSeconds(5),
          Duration.ofMillis(20),
          Duration.ofMillis(500),
          0.33,
          2);
  private static final Pattern FENCE_LINE =
      Pattern.compile("^" + LockHolderMain.FENCE + " (\\d+)$");

  private final List<LockService> services = new ArrayList<>();
  private int keyCounter;

  /** The port over store client {@code client}, one object per client. */
  protected final LockStore store(int client) {
    return clients().lockStore(client);
  }

  @BeforeAll
  void startServices() {
    for (int i = 0; i < CLIENTS; i++) {
      services.add(new LockService(store(i), CONFIG, Clock.systemUTC()));
    }
  }

  @AfterAll
  void stopServices() {
    services.forEach(LockService::close);
  }

  private LockService locks(int client) {
    return services.get(Math.floorMod(client, CLIENTS));
  }

  private String newKey() {
    return getClass().getSimpleName() + "/" + System.nanoTime() + "/key-" + (++keyCounter);
  }

  private static LockOptions options(Duration lease, Duration waitTimeout) {
    return new LockOptions(lease, waitTimeout);
  }

  // ---------------------------------------------------------------- the port's atomic steps

  /** A lock never taken reads as absent; of creates from every client at once exactly one wins. */
  @Test
  void ofConcurrentCreatesExactlyOneWinsWithToken1() throws Exception {
    String lockId = LockService.lockId(newKey());
    assertThat(store(0).read(lockId)).isEmpty();
    Instant until = Instant.now().plusSeconds(30);

    List<Optional<LockStore.Lease>> results =
        Concurrently.run(12, i -> () -> store(i).create(lockId, "owner-" + i, until));

    List<LockStore.Lease> won = results.stream().flatMap(Optional::stream).toList();
    assertThat(won).hasSize(1);
    assertThat(won.get(0).fencingToken()).isEqualTo(1);
    LockStore.LockState record = store(1).read(lockId).orElseThrow();
    assertThat(record.owner()).isEqualTo(won.get(0).owner());
    assertThat(record.fencingToken()).isEqualTo(1);
    assertThat(record.isFreeAt(Instant.now())).isFalse();
  }

  /** Of many takeovers of the same record, from every client at once, exactly one wins. */
  @Test
  void ofConcurrentTakeoversOfOneRecordExactlyOneWins() throws Exception {
    String lockId = LockService.lockId(newKey());
    Instant past = Instant.now().minusSeconds(1);
    assertThat(store(0).create(lockId, "first", past)).isPresent();
    assertThat(store(1).create(lockId, "second", past)).as("create-if-absent").isEmpty();
    LockStore.LockState expired = store(2).read(lockId).orElseThrow();
    assertThat(expired.isFreeAt(Instant.now())).isTrue();

    List<Optional<LockStore.Lease>> results =
        Concurrently.run(
            24, i -> () -> store(i).takeOver(expired, "owner-" + i, Instant.now().plusSeconds(30)));

    List<LockStore.Lease> won = results.stream().flatMap(Optional::stream).toList();
    assertThat(won).hasSize(1);
    assertThat(won.get(0).fencingToken()).isEqualTo(2);
    LockStore.LockState now = store(0).read(lockId).orElseThrow();
    assertThat(now.owner()).isEqualTo(won.get(0).owner());
    assertThat(now.fencingToken()).isEqualTo(2);
  }

  /** A lease that was taken over can neither be renewed nor released; the successor's can. */
  @Test
  void aTakenOverLeaseCanNeitherBeRenewedNorReleased() {
    String lockId = LockService.lockId(newKey());
    LockStore.Lease old =
        store(0).create(lockId, "old", Instant.now().minusMillis(1)).orElseThrow();
    LockStore.LockState expired = store(1).read(lockId).orElseThrow();
    LockStore.Lease successor =
        store(1).takeOver(expired, "successor", Instant.now().plusSeconds(30)).orElseThrow();

    assertThat(store(0).renew(old, Instant.now().plusSeconds(60))).isEmpty();
    assertThat(store(0).release(old, Instant.now())).isFalse();
    assertThat(store(0).takeOver(expired, "late", Instant.now().plusSeconds(30))).isEmpty();
    LockStore.LockState record = store(2).read(lockId).orElseThrow();
    assertThat(record.owner()).isEqualTo("successor");
    assertThat(record.fencingToken()).isEqualTo(2);
    assertThat(record.lockedUntil()).isAfter(Instant.now());

    LockStore.Lease renewed =
        store(1).renew(successor, Instant.now().plusSeconds(60)).orElseThrow();
    assertThat(store(1).release(successor, Instant.now()))
        .as("release with a stale version")
        .isFalse();
    assertThat(store(1).release(renewed, Instant.now())).isTrue();
    LockStore.LockState free = store(2).read(lockId).orElseThrow();
    assertThat(free.owner()).isNull();
    assertThat(free.fencingToken()).isEqualTo(2);
  }

  // ---------------------------------------------------------------- mutual exclusion

  /**
   * {@value #CLIENTS} clients x 8 threads each run a non-atomic increment (read, yield, write back)
   * of one counter under one key, 5 times per thread: the total is exact, no two actions ever
   * overlapped, and the fencing tokens, in the order the actions entered, only grew.
   */
  @Test
  void mutualExclusionGivesExactTotalsAcrossClients() throws Exception {
    String key = newKey();
    int threads = CLIENTS * 8;
    int perThread = 5;
    long[] counter = {0}; // deliberately not atomic
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger mostInside = new AtomicInteger();
    List<Long> fences = Collections.synchronizedList(new ArrayList<>());

    List<Integer> ran =
        Concurrently.run(
            threads,
            t ->
                () -> {
                  int done = 0;
                  for (int i = 0; i < perThread; i++) {
                    LockOutcome<Void> outcome =
                        locks(t)
                            .runWithLock(
                                key,
                                options(Duration.ofSeconds(10), LONG_WAIT),
                                held -> {
                                  mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                                  fences.add(held.fencingToken());
                                  long read = counter[0];
                                  Thread.yield();
                                  sleep(1);
                                  counter[0] = read + 1;
                                  inside.decrementAndGet();
                                  return null;
                                });
                    assertThat(outcome).isInstanceOf(LockOutcome.Ran.class);
                    assertThat(((LockOutcome.Ran<Void>) outcome).leaseLost()).isFalse();
                    done++;
                  }
                  return done;
                });

    int total = threads * perThread;
    assertThat(ran.stream().mapToInt(Integer::intValue).sum()).isEqualTo(total);
    assertThat(counter[0]).isEqualTo(total);
    assertThat(mostInside.get()).as("actions running at once").isEqualTo(1);
    assertThat(fences).hasSize(total);
    for (int i = 1; i < fences.size(); i++) {
      assertThat(fences.get(i)).as("fence %d after %d", i, i - 1).isGreaterThan(fences.get(i - 1));
    }
  }

  /** A held key does not hold up another key; waiting for a held key ends in NotAcquired. */
  @Test
  void differentKeysRunInParallelAndAWaitEndsInNotAcquired() throws Exception {
    String held = newKey();
    String other = newKey();
    CountDownLatch holding = new CountDownLatch(1);
    CountDownLatch finish = new CountDownLatch(1);
    CompletableFuture<LockOutcome<String>> holder =
        CompletableFuture.supplyAsync(
            () ->
                locks(0)
                    .runWithLock(
                        held,
                        locks(0).defaults(),
                        lock -> {
                          holding.countDown();
                          await(finish);
                          return "done";
                        }));
    assertThat(holding.await(60, TimeUnit.SECONDS)).isTrue();

    LockOutcome<String> parallel =
        locks(1)
            .runWithLock(other, options(Duration.ofSeconds(10), Duration.ZERO), lock -> "other");
    Duration wait = Duration.ofMillis(700);
    Instant started = Instant.now();
    AtomicInteger ranWhileHeld = new AtomicInteger();
    LockOutcome<String> blocked =
        locks(2)
            .runWithLock(
                held,
                options(Duration.ofSeconds(10), wait),
                lock -> {
                  ranWhileHeld.incrementAndGet();
                  return "must not run";
                });
    Duration waited = Duration.between(started, Instant.now());
    finish.countDown();

    assertThat(parallel).isEqualTo(new LockOutcome.Ran<>("other", 1, false));
    assertThat(blocked).isInstanceOf(LockOutcome.NotAcquired.class);
    assertThat(((LockOutcome.NotAcquired<String>) blocked).waited()).isGreaterThanOrEqualTo(wait);
    assertThat(waited).isGreaterThanOrEqualTo(wait).isLessThan(wait.plusSeconds(10));
    assertThat(ranWhileHeld.get()).isZero();
    assertThat(holder.get(60, TimeUnit.SECONDS)).isEqualTo(new LockOutcome.Ran<>("done", 1, false));
  }

  /**
   * Every acquisition, through whichever client, gets the previous token + 1; release keeps the
   * record (free, with its token), so the token never starts again.
   */
  @Test
  void fencingTokenGrowsWithEveryAcquisitionAndSurvivesRelease() {
    String key = newKey();
    List<Long> tokens = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      LockOutcome<Long> outcome =
          locks(i).runWithLock(key, locks(i).defaults(), HeldLock::fencingToken);
      Long token = ((LockOutcome.Ran<Long>) outcome).result();
      assertThat(((LockOutcome.Ran<Long>) outcome).fencingToken()).isEqualTo(token);
      tokens.add(token);
      LockStore.LockState record = store(i + 1).read(LockService.lockId(key)).orElseThrow();
      assertThat(record.owner()).as("released").isNull();
      assertThat(record.fencingToken()).isEqualTo(token);
    }
    assertThat(tokens).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
  }

  // ---------------------------------------------------------------- renewal and takeover

  /** A lease is renewed while its action runs, well past the lease's own length. */
  @Test
  void renewalKeepsALongActionsLease() throws Exception {
    String key = newKey();
    Duration lease = Duration.ofMillis(500);
    CountDownLatch holding = new CountDownLatch(1);
    CompletableFuture<LockOutcome<String>> holder =
        CompletableFuture.supplyAsync(
            () ->
                locks(0)
                    .runWithLock(
                        key,
                        options(lease, LONG_WAIT),
                        lock -> {
                          holding.countDown();
                          sleep(lease.toMillis() * 4);
                          return lock.isLost() ? "lost" : "held";
                        }));
    assertThat(holding.await(60, TimeUnit.SECONDS)).isTrue();

    LockOutcome<String> waiter =
        locks(1).runWithLock(key, options(lease, lease.multipliedBy(3)), lock -> "stolen");

    assertThat(waiter).isInstanceOf(LockOutcome.NotAcquired.class);
    assertThat(holder.get(60, TimeUnit.SECONDS)).isEqualTo(new LockOutcome.Ran<>("held", 1, false));
  }

  /**
   * A holder process is killed with SIGKILL while it holds a lock (renewing it): until its lease
   * runs out nobody gets the lock; then another client takes it over, with a larger fencing token.
   */
  @Test
  void expiredLeaseOfAKilledProcessIsTakenOver() throws Exception {
    String key = newKey();
    Duration lease = Duration.ofMillis(1_500);
    LockOutcome<Long> first =
        locks(0).runWithLock(key, locks(0).defaults(), HeldLock::fencingToken);
    long before = ((LockOutcome.Ran<Long>) first).fencingToken();

    Process holder = startHolderProcess(key, lease);
    try {
      long killedToken = awaitFence(holder);
      assertThat(killedToken).isGreaterThan(before);
      // The process renews its lease: after more than one lease it still holds the lock.
      LockOutcome<String> whileAlive =
          locks(1).runWithLock(key, options(lease, lease.multipliedBy(2)), lock -> "stolen");
      assertThat(whileAlive).isInstanceOf(LockOutcome.NotAcquired.class);

      holder.destroyForcibly(); // SIGKILL: no finally, no release, no shutdown hook
      assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
      Instant killed = Instant.now();

      LockOutcome<Long> takeover =
          locks(2).runWithLock(key, options(lease, LONG_WAIT), HeldLock::fencingToken);
      Duration afterKill = Duration.between(killed, Instant.now());

      assertThat(takeover).isInstanceOf(LockOutcome.Ran.class);
      long takeoverToken = ((LockOutcome.Ran<Long>) takeover).fencingToken();
      assertThat(takeoverToken).isGreaterThan(killedToken);
      // The last renewal came at most a renewal interval before the kill.
      assertThat(afterKill.toMillis())
          .as("takeover after the kill")
          .isGreaterThanOrEqualTo((long) (lease.toMillis() * (1 - CONFIG.renewalFraction())) - 200);
    } finally {
      holder.destroyForcibly();
    }
  }

  /**
   * A holder whose lease ran out without renewal (here: a client whose renewal comes only after 3
   * leases) is taken over by another client. Whether it then releases (before its renewal is due)
   * or renews (its action runs on), its write fails: it learns that it lost the lock, and the
   * successor keeps holding it.
   */
  @Test
  void staleHolderCannotReleaseNorRenewItsSuccessorsLock() throws Exception {
    LockConfig late =
        new LockConfig(
            CONFIG.lease(),
            CONFIG.waitTimeout(),
            CONFIG.backoffMin(),
            CONFIG.backoffMax(),
            3,
            CONFIG.renewalThreads());
    LockService stale = new LockService(store(1), late, Clock.systemUTC());
    try {
      staleHolderIsTakenOver(stale, false);
      staleHolderIsTakenOver(stale, true);
    } finally {
      stale.close();
    }
  }

  private void staleHolderIsTakenOver(LockService stale, boolean untilRenewal) throws Exception {
    String key = newKey();
    Duration lease = Duration.ofMillis(500);
    CountDownLatch staleHolds = new CountDownLatch(1);
    CountDownLatch successorHolds = new CountDownLatch(1);
    CountDownLatch successorMayFinish = new CountDownLatch(1);
    CompletableFuture<LockOutcome<Boolean>> staleRun =
        CompletableFuture.supplyAsync(
            () ->
                stale.runWithLock(
                    key,
                    options(lease, LONG_WAIT),
                    lock -> {
                      staleHolds.countDown();
                      await(successorHolds);
                      long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                      while (untilRenewal && !lock.isLost() && System.nanoTime() < until) {
                        sleep(20);
                      }
                      return lock.isLost();
                    }));
    assertThat(staleHolds.await(60, TimeUnit.SECONDS)).isTrue();
    CompletableFuture<LockOutcome<Long>> successorRun =
        CompletableFuture.supplyAsync(
            () ->
                locks(0)
                    .runWithLock(
                        key,
                        options(Duration.ofSeconds(30), LONG_WAIT),
                        lock -> {
                          successorHolds.countDown();
                          await(successorMayFinish);
                          return lock.fencingToken();
                        }));

    LockOutcome<Boolean> staleOutcome = staleRun.get(90, TimeUnit.SECONDS);
    // Lost: known to the action only when its renewal failed, to the outcome in either case.
    assertThat(staleOutcome).isEqualTo(new LockOutcome.Ran<>(untilRenewal, 1, true));
    // The stale holder has finished and tried to release: the successor still holds the lock.
    LockStore.LockState record = store(2).read(LockService.lockId(key)).orElseThrow();
    assertThat(record.owner()).isNotNull();
    assertThat(record.fencingToken()).isEqualTo(2);
    assertThat(record.isFreeAt(Instant.now())).isFalse();
    LockOutcome<String> third =
        locks(2).runWithLock(key, options(lease, Duration.ofMillis(500)), lock -> "stolen");
    assertThat(third).isInstanceOf(LockOutcome.NotAcquired.class);

    successorMayFinish.countDown();
    assertThat(successorRun.get(60, TimeUnit.SECONDS))
        .isEqualTo(new LockOutcome.Ran<>(2L, 2, false));
  }

  // ---------------------------------------------------------------- helpers

  /** Starts {@link LockHolderMain} in a JVM of its own, holding {@code key} with {@code lease}. */
  private Process startHolderProcess(String key, Duration lease) throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> command =
        new ArrayList<>(
            List.of(
                java.toString(),
                "-Xmx128m",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                LockHolderMain.class.getName(),
                key,
                Long.toString(lease.toMillis())));
    command.add(clients().store());
    command.add(clients().location());
    return new ProcessBuilder(command).redirectErrorStream(true).start();
  }

  /** Reads the holder's output until it prints its fencing token; keeps draining it afterwards. */
  private static long awaitFence(Process holder) throws Exception {
    CompletableFuture<Long> fence = new CompletableFuture<>();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader out =
                  new BufferedReader(
                      new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                  Matcher m = FENCE_LINE.matcher(line.trim());
                  if (m.matches()) {
                    fence.complete(Long.parseLong(m.group(1)));
                  } else if (!fence.isDone()) {
                    System.out.println("[lock holder] " + line);
                  }
                }
                fence.completeExceptionally(new AssertionError("the lock holder exited first"));
              } catch (Exception e) {
                fence.completeExceptionally(e);
              }
            },
            "lock-holder-output");
    reader.setDaemon(true);
    reader.start();
    return fence.get(180, TimeUnit.SECONDS);
  }
}
