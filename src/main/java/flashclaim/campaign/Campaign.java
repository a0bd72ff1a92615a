package flashclaim.campaign;

import flashclaim.InvalidInputException;
import java.time.Instant;
import java.util.Objects;

/**
 * A campaign: a pool of coupon codes that users claim, at most {@code perUserLimit} each, while the
 * campaign is open ({@code startsAt <= now < endsAt}; a missing bound is open-ended). Campaigns do
 * not change after creation, which lets instances cache them.
 */
public record Campaign(
    CampaignId id,
    String name,
    int perUserLimit,
    Instant startsAt,
    Instant endsAt,
    Instant createdAt) {

  public static final int MAX_PER_USER_LIMIT = 100;
  public static final int MAX_NAME_LENGTH = 200;

  public Campaign {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(createdAt, "createdAt");
    if (name == null || name.isBlank() || name.length() > MAX_NAME_LENGTH) {
      throw new InvalidInputException("name", "name must be 1 to 200 characters, not blank");
    }
    if (perUserLimit < 1 || perUserLimit > MAX_PER_USER_LIMIT) {
      throw new InvalidInputException("perUserLimit", "perUserLimit must be between 1 and 100");
    }
    if (startsAt != null && endsAt != null && !endsAt.isAfter(startsAt)) {
      throw new InvalidInputException("endsAt", "endsAt must be after startsAt");
    }
  }

  /** Where {@code now} lies relative to the campaign's window. */
  public Window windowAt(Instant now) {
    if (startsAt != null && now.isBefore(startsAt)) {
      return Window.NOT_STARTED;
    }
    if (endsAt != null && !now.isBefore(endsAt)) {
      return Window.ENDED;
    }
    return Window.OPEN;
  }

  /** The campaign's window as seen at one instant. */
  public enum Window {
    NOT_STARTED,
    OPEN,
    ENDED
  }
}
