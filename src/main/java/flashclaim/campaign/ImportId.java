package flashclaim.campaign;

import flashclaim.InvalidInputException;
import java.security.SecureRandom;
import java.util.regex.Pattern;

/**
 * Identifier of an import of codes from a file: 1 to 64 characters of {@code A-Z a-z 0-9 _ -}, as
 * a campaign id. The client may choose it (the {@code Import-Id} header), else the service makes
 * one.
 */
public record ImportId(String value) {
  private static final Pattern VALID = Pattern.compile("[A-Za-z0-9_-]{1,64}");
  private static final char[] ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz".toCharArray();
  private static final SecureRandom RANDOM = new SecureRandom();

  public ImportId {
    if (value == null || !VALID.matcher(value).matches()) {
      throw new InvalidInputException(
          "Import-Id", "an import id must be 1 to 64 characters of A-Z, a-z, 0-9, '_' or '-'");
    }
  }

  /** A new random id: {@code imp-} and 20 characters (100 bits). */
  public static ImportId random() {
    char[] chars = new char[20];
    for (int i = 0; i < chars.length; i++) {
      chars[i] = ALPHABET[RANDOM.nextInt(ALPHABET.length)];
    }
    return new ImportId("imp-" + new String(chars));
  }

  @Override
  public String toString() {
    return value;
  }
}
