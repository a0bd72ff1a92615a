package flashclaim.campaign;

import flashclaim.InvalidInputException;
import flashclaim.Text;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * A campaign: a pool of coupon codes that users claim, at most {@code perUserLimit} each, while the
 * campaign is open ({@code startsAt <= now < endsAt}; a missing bound is open-ended) and not paused.
 * An admin may change its name, window, limit and pause ({@link CampaignPatch}); every change moves
 * {@code version} by one (0 at creation) and is recorded ({@link CampaignChange}). Instances cache a
 * campaign for at most {@code flashclaim.claim.campaign-cache-ttl}, so a change reaches every
 * instance within that bound.
 *
 * <p>The name is 1 to {@value #MAX_NAME_LENGTH} printable characters ({@link Text#isPrintable}).
 * Instants are kept to the microsecond, the precision of both stores, so that a campaign reads back
 * from either exactly as it was created; its bounds lie from {@link #EARLIEST} to {@link #LATEST},
 * the instants that both stores can hold (Firestore's timestamps span the years 1 to 9999,
 * PostgreSQL's more).
 */
public record Campaign(
    CampaignId id,
    String name,
    int perUserLimit,
    Instant startsAt,
    Instant endsAt,
    Instant createdAt,
    boolean paused,
    long version) {

  public static final int MAX_PER_USER_LIMIT = 100;
  public static final int MAX_NAME_LENGTH = 200;
  public static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");
  public static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999999Z");

  /** A new campaign: not paused, version 0. */
  public Campaign(
      CampaignId id,
      String name,
      int perUserLimit,
      Instant startsAt,
      Instant endsAt,
      Instant createdAt) {
    this(id, name, perUserLimit, startsAt, endsAt, createdAt, false, 0);
  }

  public Campaign {
    Objects.requireNonNull(id, "id");
    if (version < 0) {
      throw new IllegalArgumentException("version must not be negative");
    }
    createdAt = Objects.requireNonNull(createdAt, "createdAt").truncatedTo(ChronoUnit.MICROS);
    if (name == null
        || name.isBlank()
        || name.length() > MAX_NAME_LENGTH
        || !Text.isPrintable(name)) {
      throw new InvalidInputException(
          "name", "name must be 1 to 200 characters, not blank, without control characters");
    }
    if (perUserLimit < 1 || perUserLimit > MAX_PER_USER_LIMIT) {
      throw new InvalidInputException("perUserLimit", "perUserLimit must be between 1 and 100");
    }
    startsAt = storable("startsAt", startsAt);
    endsAt = storable("endsAt", endsAt);
    if (startsAt != null && endsAt != null && !endsAt.isAfter(startsAt)) {
      throw new InvalidInputException("endsAt", "endsAt must be after startsAt");
    }
  }

  /** The bound as the stores keep it; null stays null (open-ended). */
  private static Instant storable(String field, Instant bound) {
    if (bound == null) {
      return null;
    }
    Instant kept = bound.truncatedTo(ChronoUnit.MICROS);
    if (kept.isBefore(EARLIEST) || kept.isAfter(LATEST)) {
      throw new InvalidInputException(
          field, field + " must lie from " + EARLIEST + " to " + LATEST);
    }
    return kept;
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
