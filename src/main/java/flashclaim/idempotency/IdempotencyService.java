package flashclaim.idempotency;

import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/**
 * Idempotency keys as the IETF httpapi draft describes them: the first request with a key runs and
 * its result is stored; a repeat with the same fingerprint gets that result again without running;
 * a repeat with another fingerprint is refused; a repeat while the first is still running is told
 * to come back.
 *
 * <p>A record that has expired counts as absent: it is removed (conditioned on the version read, so
 * of concurrent requests only one removes it and none removes a fresh record) and the key starts
 * over. That covers both a completed result past its retention and an in-flight record whose
 * request was lost with its instance.
 */
@Singleton
@Requires(bean = IdempotencyStore.class)
public final class IdempotencyService {
  private static final int ATTEMPTS = 2;

  private final IdempotencyStore store;
  private final IdempotencyConfig config;
  private final Clock clock;

  IdempotencyService(IdempotencyStore store, IdempotencyConfig config, Clock clock) {
    this.store = store;
    this.config = config;
    this.clock = clock;
  }

  /**
   * Starts a request that carries a key. Never waits for another request.
   *
   * @param caller the caller's identity (the token subject); keys are for authenticated callers
   * @throws flashclaim.StoreException when the store fails
   */
  public Start start(String caller, IdempotencyKey key, String fingerprint) {
    String recordId = key.recordId(caller);
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      Instant now = clock.instant();
      Optional<Instant> created =
          store.create(recordId, fingerprint, now.plus(config.inFlightTimeout()));
      if (created.isPresent()) {
        return new Start.Proceed(new Ticket(recordId, created.get()));
      }
      Optional<IdempotencyRecord> found = store.read(recordId);
      Optional<Start> answered = found.flatMap(record -> answered(record, fingerprint, now));
      if (answered.isPresent()) {
        return answered.get();
      }
      // Deleted between the create and the read, or expired: remove exactly the version read.
      found.ifPresent(expired -> store.deleteIf(recordId, expired.version()));
    }
    return new Start.InFlight(config.retryAfter());
  }

  /**
   * What {@link #start} would answer a request with a key from the key's record, without writing
   * anything: one read. {@link Start.Replay}, {@link Start.InFlight} or {@link Start.Mismatch};
   * empty when the key has no record that counts (none, or expired), where {@link #start} would
   * let the request proceed. For a request that does not run whatever the key holds: it is
   * answered from the record when there is one, else as its caller decided.
   *
   * @throws flashclaim.StoreException when the store fails
   */
  public Optional<Start> lookUp(String caller, IdempotencyKey key, String fingerprint) {
    return store
        .read(key.recordId(caller))
        .flatMap(record -> answered(record, fingerprint, clock.instant()));
  }

  /** The answer a live record gives a request with {@code fingerprint}; empty once it expired. */
  private Optional<Start> answered(IdempotencyRecord record, String fingerprint, Instant now) {
    if (!record.expiresAt().isAfter(now)) {
      return Optional.empty();
    }
    if (!record.fingerprint().equals(fingerprint)) {
      return Optional.of(new Start.Mismatch());
    }
    return Optional.of(
        record.inFlight()
            ? new Start.InFlight(config.retryAfter())
            : new Start.Replay(record.response()));
  }

  /**
   * Stores the result of a request that {@link Start.Proceed proceeded}, for the retention. A body
   * above {@code max-stored-body} is left out; the status and headers are kept, so a repeat still
   * never runs the request again.
   *
   * @return false when the record had been taken over (nothing stored)
   * @throws flashclaim.StoreException when the store fails
   */
  public boolean complete(Ticket ticket, StoredResponse response) {
    StoredResponse stored =
        response.hasBody() && response.body().length > config.maxStoredBody()
            ? new StoredResponse(response.status(), response.contentType(), response.location(), null)
            : response;
    return store.complete(
        ticket.recordId(), ticket.version(), stored, clock.instant().plus(config.retention()));
  }

  /**
   * Forgets a request that {@link Start.Proceed proceeded} but whose result is not to be kept (the
   * client should retry it), so that the key can be used again at once.
   *
   * @throws flashclaim.StoreException when the store fails; the record then expires after the
   *     in-flight timeout
   */
  public boolean abandon(Ticket ticket) {
    return store.deleteIf(ticket.recordId(), ticket.version());
  }

  /**
   * Whether a result is the request's final answer, to be stored and replayed. Not final, so not
   * stored: a 5xx or an answer with Retry-After (the client is told to retry), 401 and 403 (the
   * caller's token or the campaign's window may change), 404 (the campaign may be created), 408
   * and 422 (nothing of the request was done).
   *
   * @param status the HTTP status of the result
   * @param retryAfter whether the result tells the client when to retry
   */
  public static boolean isFinal(int status, boolean retryAfter) {
    return status < 500 && !retryAfter && !NOT_FINAL.contains(status);
  }

  private static final Set<Integer> NOT_FINAL = Set.of(401, 403, 404, 408, 422);

  /** The in-flight record a proceeding request owns. */
  public record Ticket(String recordId, Instant version) {}

  /** What a request with a key is to do. */
  public sealed interface Start {
    /** First use of the key: run the request, then {@link #complete} or {@link #abandon}. */
    record Proceed(Ticket ticket) implements Start {}

    /** The key's result is stored: answer it again, do not run the request. */
    record Replay(StoredResponse response) implements Start {}

    /** The first request with this key is still running; retry after {@code retryAfter}. */
    record InFlight(Duration retryAfter) implements Start {}

    /** The key was used for a different request (method, path, caller or body). */
    record Mismatch() implements Start {}
  }
}
