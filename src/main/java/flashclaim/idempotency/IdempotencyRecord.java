package flashclaim.idempotency;

import io.micronaut.core.annotation.Nullable;
import java.time.Instant;

/**
 * The record of one key of one caller, as stored.
 *
 * @param fingerprint the {@link Fingerprint} of the request that first used the key
 * @param version the store's update time of the record, which identifies this state of it
 * @param expiresAt from then on the record counts as absent (the store's TTL policy deletes it)
 * @param response the stored result; null while the first request is in flight
 */
public record IdempotencyRecord(
    String fingerprint, Instant version, Instant expiresAt, @Nullable StoredResponse response) {

  public boolean inFlight() {
    return response == null;
  }
}
