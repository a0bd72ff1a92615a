package flashclaim.campaign;

/** One request asked to add more codes than {@code flashclaim.seeding.max-codes-per-request}. */
public final class TooManyCodesException extends RuntimeException {
  private final int limit;

  public TooManyCodesException(int requested, int limit) {
    super(requested + " codes in one request; at most " + limit + " are accepted", null, false, false);
    this.limit = limit;
  }

  public int limit() {
    return limit;
  }
}
