package flashclaim.campaign;

import flashclaim.InvalidInputException;
import java.util.regex.Pattern;

/**
 * Identifier of a campaign, chosen by the admin who creates it: 1 to 64 characters of {@code A-Z
 * a-z 0-9 _ -}, so that it is safe as a document id, a URL path segment and a log field. Firestore
 * reserves the ids that start and end with {@code __}, so no campaign id does; its other rules (not
 * {@code .} or {@code ..}, no {@code /}, at most 1,500 bytes) the character set and length already
 * keep.
 *
 * <p>Ids that start with {@value #RESERVED_PREFIX} are the service's own (the start-up warm-up's
 * scratch campaign): no admin can create one, and no route shows one to anyone but the warm-up.
 */
public record CampaignId(String value) {
  /** The prefix of the ids that the service keeps for itself. */
  public static final String RESERVED_PREFIX = "_flashclaim-";

  private static final Pattern VALID = Pattern.compile("[A-Za-z0-9_-]{1,64}");
  private static final Pattern RESERVED = Pattern.compile("__.*__");

  public CampaignId {
    if (value == null || !VALID.matcher(value).matches() || RESERVED.matcher(value).matches()) {
      throw new InvalidInputException(
          "id",
          "campaign id must be 1 to 64 characters of A-Z, a-z, 0-9, '_' or '-', not both"
              + " starting and ending with '__'");
    }
  }

  /** Whether the id is the service's own ({@link #RESERVED_PREFIX}), never a campaign of admins. */
  public boolean isReserved() {
    return isReserved(value);
  }

  /** Whether {@code value} starts with {@link #RESERVED_PREFIX}, valid id or not. */
  public static boolean isReserved(String value) {
    return value.startsWith(RESERVED_PREFIX);
  }

  @Override
  public String toString() {
    return value;
  }
}
