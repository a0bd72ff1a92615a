package flashclaim.admission;

import flashclaim.ExpireAt;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import flashclaim.Sha256;
import io.micronaut.context.annotation.Context;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The callers this instance told to come back later, and from when it lets them: a claim whose
 * caller was answered 503 with Retry-After {@code r} is remembered until {@code r} less {@code
 * flashclaim.admission.pacing.tolerance} (at most half of {@code r}) from that answer; a retry of
 * the same caller for the same campaign sooner than that is {@link #waitLeft too early}, and loses
 * the tolerance: it is let through only a tolerance past the time it was told, after the clients
 * that waited as told, so that retrying in a loop gains nothing.
 *
 * <p>A caller is its credentials as sent, not as verified, so that an early retry is known before
 * its token is checked: the key is the first 64 bits of the SHA-256 of the credentials and the
 * claim (its campaign), never the token itself. Memory is bounded by {@code max-callers} keys
 * (Caffeine), each forgotten when its time has come; a forgotten caller is let through.
 */
@Context
public final class ClaimPacing {
  private final PacingConfig config;
  private final Clock clock;
  private final Cache<Long, Pace> notBefore;
  private final WaitTimer timer;
  private final LongAdder tooEarly = new LongAdder();
  private final AtomicInteger held = new AtomicInteger();
  private final Set<Held> holding = ConcurrentHashMap.newKeySet();
  private volatile boolean stopped;

  ClaimPacing(PacingConfig config, Clock clock, WaitTimer timer) {
    this.config = config;
    this.clock = clock;
    this.timer = timer;
    this.notBefore =
        Caffeine.newBuilder()
            .maximumSize(config.maxCallers())
            .expireAfter(new ExpireAt<Long, Pace>(Pace::until))
            .ticker(() -> ExpireAt.nanos(clock.instant()))
            .executor(Runnable::run)
            .build();
  }

  /** Whether early retries are answered from memory ({@code flashclaim.admission.pacing.enabled}). */
  public boolean enabled() {
    return config.enabled();
  }

  /** The key of a caller's claim: its credentials as sent and the claim's campaign, hashed. */
  public static long key(String credentials, String claim) {
    return key(digest(credentials, claim));
  }

  /** The key of a caller's claim from its {@link #digest}: the digest's first 64 bits. */
  public static long key(byte[] digest) {
    return ByteBuffer.wrap(digest).getLong();
  }

  /** The SHA-256 of a caller's credentials as sent and the claim's campaign (its path). */
  public static byte[] digest(String credentials, String claim) {
    MessageDigest digest = Sha256.digest();
    digest.update(credentials.getBytes(StandardCharsets.UTF_8));
    digest.update((byte) 0); // neither part may run into the other
    digest.update(claim.getBytes(StandardCharsets.UTF_8));
    return digest.digest();
  }

  /**
   * How long the caller must still wait before this claim, rounded up to the millisecond, counted
   * as a too-early retry; empty when it may claim now.
   */
  public Optional<Duration> waitLeft(long key) {
    Instant now = clock.instant();
    Pace pace = notBefore.getIfPresent(key);
    if (pace == null || !pace.until().isAfter(now)) {
      return Optional.empty();
    }
    tooEarly.increment();
    if (!pace.tolerance().isZero()) {
      // Too early once: the tolerance is for clocks and networks, not for clients that do not
      // wait; from now on this caller waits until a tolerance past the time it was told, behind
      // the honest clients told the same.
      Pace later = new Pace(pace.until().plus(pace.tolerance().multipliedBy(2)), Duration.ZERO);
      notBefore.asMap().replace(key, pace, later);
      pace = later;
    }
    Duration left = Duration.between(now, pace.until());
    // Rounded up: a client that waits this long is let through.
    return Optional.of(left.plusNanos(999_999).truncatedTo(ChronoUnit.MILLIS));
  }

  /**
   * The answer to a claim of the caller of {@code key}: empty when it may claim now; else it is a
   * retry too soon ({@link #waitLeft}), and the future completes with the wait it still has left
   * to be told (a 429 with that Retry-After), once its answer has been held for the wait left, at
   * most {@code hold-too-soon}: at once when that is zero or {@code max-held} answers are held
   * already. A wait held in full leaves nothing to wait: the answer tells the least there is.
   */
  public Optional<CompletableFuture<Duration>> tooSoon(long key) {
    Optional<Duration> left = waitLeft(key);
    if (left.isEmpty()) {
      return Optional.empty();
    }
    Duration most = config.holdTooSoon();
    Duration hold = left.get().compareTo(most) < 0 ? left.get() : most;
    if (hold.isZero() || stopped) {
      return Optional.of(CompletableFuture.completedFuture(left.get()));
    }
    if (held.incrementAndGet() > config.maxHeld()) {
      held.decrementAndGet();
      return Optional.of(CompletableFuture.completedFuture(left.get()));
    }
    Held answer = new Held(new CompletableFuture<>(), clock.instant().plus(left.get()));
    holding.add(answer);
    timer.schedule(hold, () -> send(answer));
    if (stopped) {
      send(answer); // stopped while it was being held: sent now, as the others were
    }
    return Optional.of(answer.told());
  }

  /**
   * Sends every held answer now, each telling the rest of its wait, and holds no more: the
   * instance drains for shutdown, and a held answer must not outlive it.
   */
  public void sendHeldNow() {
    stopped = true;
    holding.forEach(this::send);
  }

  /** Sends a held answer, once: the wait its caller has left then. */
  private void send(Held answer) {
    if (holding.remove(answer)) {
      held.decrementAndGet();
      Duration rest = Duration.between(clock.instant(), answer.waitEnds());
      answer.told().complete(rest.isNegative() ? Duration.ZERO : rest);
    }
  }

  /** A 429 held until its caller's wait ends, or the hold does: then told the rest of it. */
  private record Held(CompletableFuture<Duration> told, Instant waitEnds) {}

  /** The answers to retries too soon held now. */
  public int held() {
    return held.get();
  }

  /**
   * Remembers that the caller was just told to come back after {@code told} (the Retry-After it
   * was sent, in milliseconds when the answer had them): its claims are let through again from
   * that time less the tolerance. The latest answer counts, as the client follows the latest it
   * received.
   */
  public void toldToWait(long key, Duration told) {
    if (told.isNegative() || told.isZero()) {
      return;
    }
    Duration tolerance =
        config.tolerance().compareTo(told.dividedBy(2)) > 0 ? told.dividedBy(2) : config.tolerance();
    notBefore.put(key, new Pace(clock.instant().plus(told).minus(tolerance), tolerance));
  }

  /** Let through from {@code until}; {@code tolerance} before the time told, until it is lost. */
  private record Pace(Instant until, Duration tolerance) {}

  /** Claims answered too early so far. */
  public long tooEarlyCount() {
    return tooEarly.sum();
  }

  /** Callers remembered now (an estimate: some may have come due and not yet been forgotten). */
  public long callers() {
    return notBefore.estimatedSize();
  }

  /** Forgets the callers whose time has come, and those past the bound, now (tests). */
  void cleanUp() {
    notBefore.cleanUp();
  }
}
