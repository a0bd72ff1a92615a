package flashclaim;

/**
 * The store failed or did not answer in time: an infrastructure fault, not an outcome. Each store
 * adapter wraps its client's exceptions into this one once; the HTTP layer answers 503 with
 * Retry-After, because the same request may well succeed a moment later.
 */
public final class StoreException extends RuntimeException {
  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
