package flashclaim.idempotency;

import io.micronaut.core.annotation.Nullable;

/**
 * The first result of a request, as it is replayed.
 *
 * @param status the HTTP status
 * @param contentType the Content-Type, if the response had one
 * @param location the Location header, if the response had one (a 201 names what it created)
 * @param body the body bytes as sent; null when the body was larger than {@code
 *     flashclaim.idempotency.max-stored-body} and was not stored (the replay then has none)
 */
public record StoredResponse(
    int status, @Nullable String contentType, @Nullable String location, @Nullable byte[] body) {

  /** Whether the body was stored. */
  public boolean hasBody() {
    return body != null;
  }
}
