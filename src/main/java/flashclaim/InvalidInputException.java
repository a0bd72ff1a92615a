package flashclaim;

/**
 * A value from outside (a path segment, a body field) breaks a rule of the domain. The HTTP layer
 * answers it with 400; it never reaches a store.
 */
public final class InvalidInputException extends RuntimeException {
  private final String field;

  public InvalidInputException(String field, String message) {
    super(message, null, false, false);
    this.field = field;
  }

  /** Name of the offending field or path parameter. */
  public String field() {
    return field;
  }
}
