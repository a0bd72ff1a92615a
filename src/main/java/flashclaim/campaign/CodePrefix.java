package flashclaim.campaign;

import flashclaim.InvalidInputException;
import java.util.regex.Pattern;

/**
 * The prefix of generated coupon codes: empty, or 1 to {@value #MAX_LENGTH} characters of {@code
 * A-Z a-z 0-9 _ -} starting with a letter or digit, so that the prefix followed by a generated
 * suffix is always a valid {@link CouponCode}.
 */
public record CodePrefix(String value) {
  public static final int MAX_LENGTH = 20;
  // Before NONE, which needs it to be built.
  private static final Pattern VALID = Pattern.compile("([A-Za-z0-9][A-Za-z0-9_-]{0,19})?");

  /** No prefix: the codes are the generated suffix alone. */
  public static final CodePrefix NONE = new CodePrefix("");

  public CodePrefix {
    if (value == null || !VALID.matcher(value).matches()) {
      throw new InvalidInputException(
          "generate.prefix",
          "prefix must be at most 20 characters of A-Z, a-z, 0-9, '_' or '-', starting with a"
              + " letter or digit");
    }
  }

  /** The code of this prefix followed by {@code suffix}. */
  public CouponCode code(String suffix) {
    return new CouponCode(value + suffix);
  }

  @Override
  public String toString() {
    return value;
  }
}
