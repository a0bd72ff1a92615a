package flashclaim.campaign;

import flashclaim.InvalidInputException;
import java.util.regex.Pattern;

/** A coupon code as handed to a user: 1 to 64 characters of {@code A-Z a-z 0-9 _ - .}. */
public record CouponCode(String value) {
  private static final Pattern VALID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");

  public CouponCode {
    if (value == null || !VALID.matcher(value).matches()) {
      throw new InvalidInputException(
          "codes",
          "a coupon code must be 1 to 64 characters of A-Z, a-z, 0-9, '_', '-' or '.', starting"
              + " with a letter or digit");
    }
  }

  @Override
  public String toString() {
    return value;
  }
}
