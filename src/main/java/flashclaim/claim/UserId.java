package flashclaim.claim;

import flashclaim.InvalidInputException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The user who claims: the {@code sub} of a verified token, any string of up to 512 characters. It
 * is never used as a key directly: {@link #key()} hashes it, so that any user id (slashes, dots,
 * unicode, 500 characters) maps to a valid, fixed-length, evenly spread document id.
 */
public record UserId(String value) {
  public static final int MAX_LENGTH = 512;

  public UserId {
    if (value == null || value.isEmpty() || value.length() > MAX_LENGTH) {
      throw new InvalidInputException("sub", "the token's subject must be 1 to 512 characters");
    }
  }

  /** SHA-256 of the id, as 64 lowercase hex characters. */
  public String key() {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(sha.digest(value.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }

  @Override
  public String toString() {
    return "UserId[" + key().substring(0, 12) + "]";
  }
}
