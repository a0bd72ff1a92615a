package flashclaim.redemption;

import flashclaim.InvalidInputException;
import flashclaim.Text;

/**
 * The shop's id of the order that used a coupon, as the shop sends it: 1 to 128 characters, not
 * blank, printable ({@link Text#isPrintable}). Shops number orders their own way ({@code #1001},
 * {@code ORD-2030-000042}, a UUID), so nothing else is asked of it.
 */
public record OrderId(String value) {
  public static final int MAX_LENGTH = 128;

  public OrderId {
    if (value == null
        || value.isBlank()
        || value.length() > MAX_LENGTH
        || !Text.isPrintable(value)) {
      throw new InvalidInputException(
          "orderId", "orderId must be 1 to 128 characters, not blank, without control characters");
    }
  }

  @Override
  public String toString() {
    return value;
  }
}
