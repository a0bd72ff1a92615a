package flashclaim.idempotency;

import flashclaim.InvalidInputException;
import flashclaim.Sha256;

/**
 * The value of an {@code Idempotency-Key} header: 1 to 255 printable ASCII characters (0x20 to
 * 0x7E). The IETF draft defines the header as a Structured Field string ({@code "abc"}); the
 * quoted form and the bare form ({@code abc}) name the same key.
 */
public record IdempotencyKey(String value) {
  public static final String HEADER = "Idempotency-Key";
  public static final int MAX_LENGTH = 255;

  public IdempotencyKey {
    if (value == null || value.isEmpty() || value.length() > MAX_LENGTH) {
      throw invalid();
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c > 0x7E) {
        throw invalid();
      }
    }
  }

  /**
   * The key a header value names. A value that starts with a double quote must be a whole quoted
   * string, which is unquoted ({@code \"} and {@code \\} are its only escapes).
   */
  public static IdempotencyKey fromHeader(String header) {
    if (header.startsWith("\"")) {
      if (header.length() < 2 || !header.endsWith("\"")) {
        throw invalid();
      }
      StringBuilder key = new StringBuilder(header.length());
      for (int i = 1; i < header.length() - 1; i++) {
        char c = header.charAt(i);
        if (c == '\\') {
          if (i + 1 >= header.length() - 1) {
            throw invalid();
          }
          c = header.charAt(++i);
          if (c != '"' && c != '\\') {
            throw invalid();
          }
        } else if (c == '"') {
          throw invalid();
        }
        key.append(c);
      }
      return new IdempotencyKey(key.toString());
    }
    return new IdempotencyKey(header);
  }

  /**
   * The id of this key's record for one caller: SHA-256 of {@code caller + "\n" + key}. Keys are
   * scoped per caller, so two callers with the same key never meet; a key holds no line feed, so
   * the last one separates the two parts unambiguously.
   */
  public String recordId(String caller) {
    return Sha256.hex(caller + "\n" + value);
  }

  private static InvalidInputException invalid() {
    return new InvalidInputException(
        HEADER, "the Idempotency-Key must be 1 to 255 printable ASCII characters");
  }
}
