package flashclaim.http.claim;

import flashclaim.ExpireAt;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import flashclaim.admission.ClaimPacing;
import jakarta.inject.Singleton;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The callers whose claims the claim edge let through authentication and App Check, so that the
 * claim door ({@link ClaimDoor}) may refuse their next claims without the framework: a caller is
 * the SHA-256 of its credentials as sent and its claim's path ({@link ClaimPacing#digest}), with
 * the SHA-256 of its App Check tokens, and is remembered as the token's subject until the earlier
 * of the token's {@code exp} and {@code flashclaim.http.door.caller-ttl}. A caller is found only by
 * the whole of both digests, so credentials that were never verified (forged, or altered by a
 * byte) are never taken for a remembered caller. Memory is bounded by {@code max-callers}
 * (Caffeine); a forgotten caller goes through the whole pipeline again.
 */
@Singleton
final class KnownCallers {
  private final Duration ttl;
  private final Clock clock;
  private final Cache<Long, Caller> callers;

  KnownCallers(DoorConfig config, Clock clock) {
    this.ttl = config.callerTtl();
    this.clock = clock;
    this.callers =
        Caffeine.newBuilder()
            .maximumSize(config.maxCallers())
            .expireAfter(new ExpireAt<Long, Caller>(Caller::until))
            .ticker(() -> ExpireAt.nanos(clock.instant()))
            .executor(Runnable::run)
            .build();
  }

  /** A verified caller: its digests, its token's subject, and when it is forgotten. */
  private record Caller(byte[] digest, byte[] appCheck, String user, Instant until) {}

  /**
   * Remembers that the caller of {@code digest}, with App Check tokens of {@code appCheck}, was
   * verified as {@code user}, with a token that expires at {@code expiry}.
   */
  void remember(byte[] digest, byte[] appCheck, String user, Instant expiry) {
    Instant now = clock.instant();
    Instant until = expiry.isBefore(now.plus(ttl)) ? expiry : now.plus(ttl);
    if (!until.isAfter(now)) {
      return;
    }
    long key = ClaimPacing.key(digest);
    Caller known = callers.getIfPresent(key);
    if (known != null && same(known, digest, appCheck, user) && !known.until().isBefore(until)) {
      return;
    }
    callers.put(key, new Caller(digest, appCheck, user, until));
  }

  /** The subject of the verified caller of {@code digest} and {@code appCheck}, if remembered. */
  Optional<String> user(byte[] digest, byte[] appCheck) {
    Caller known = callers.getIfPresent(ClaimPacing.key(digest));
    if (known == null
        || !MessageDigest.isEqual(known.digest(), digest)
        || !MessageDigest.isEqual(known.appCheck(), appCheck)
        || !known.until().isAfter(clock.instant())) {
      return Optional.empty();
    }
    return Optional.of(known.user());
  }

  /** Callers remembered now (an estimate). */
  long size() {
    return callers.estimatedSize();
  }

  private static boolean same(Caller known, byte[] digest, byte[] appCheck, String user) {
    return MessageDigest.isEqual(known.digest(), digest)
        && MessageDigest.isEqual(known.appCheck(), appCheck)
        && known.user().equals(user);
  }
}
