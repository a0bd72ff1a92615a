package flashclaim.claim;

import flashclaim.InvalidInputException;
import flashclaim.Sha256;
import flashclaim.Text;

/**
 * The user who claims: the {@code sub} of a verified token, any well-formed string ({@link
 * Text#isWellFormed}, so that two ids never share one UTF-8 form) of up to 512 characters. It is
 * never used as a key directly: {@link #key()} hashes it, so that any user id (slashes, dots,
 * unicode, 500 characters) maps to a valid, fixed-length, evenly spread document id.
 */
public record UserId(String value) {
  public static final int MAX_LENGTH = 512;

  public UserId {
    if (value == null
        || value.isEmpty()
        || value.length() > MAX_LENGTH
        || !Text.isWellFormed(value)) {
      throw new InvalidInputException(
          "sub", "the token's subject must be 1 to 512 characters of well-formed Unicode");
    }
  }

  /** SHA-256 of the id, as 64 lowercase hex characters. */
  public String key() {
    return Sha256.hex(value);
  }

  @Override
  public String toString() {
    return "UserId[" + key().substring(0, 12) + "]";
  }
}
