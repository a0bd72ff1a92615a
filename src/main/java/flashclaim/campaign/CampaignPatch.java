package flashclaim.campaign;

import flashclaim.InvalidInputException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.LongSupplier;

/**
 * A change of a campaign, in the style of a JSON merge patch (RFC 7396): the fields given are set,
 * the others kept; {@code null} removes a bound ({@code startsAt}, {@code endsAt}). The rules:
 *
 * <ul>
 *   <li>only {@code name}, {@code startsAt}, {@code endsAt}, {@code perUserLimit} and {@code paused}
 *       change, with the values creation takes (400 otherwise); {@code id} may be given only with the
 *       campaign's own id (it never changes); any other member is refused 400;
 *   <li>{@code endsAt} stays after {@code startsAt} (400);
 *   <li>{@code perUserLimit} may rise at any time; it may drop only while no coupon of the campaign
 *       is assigned and claims cannot be served (not open, or paused), else 409 {@code
 *       per-user-limit-locked}: nobody ever holds more than the limit, and no instance can still
 *       be handing out coupons under the old one (that needs no scan of the users' holdings);
 *   <li>an ended campaign stays ended unless the patch says {@code "reopen": true}: a patch whose
 *       window would make a campaign that has ended open or upcoming again is refused 409 {@code
 *       campaign-ended} without it;
 *   <li>with an expected version ({@code If-Match}), a campaign at another version is refused 412.
 * </ul>
 *
 * The rules are applied to the campaign as the store holds it, inside the store's transaction
 * ({@link CampaignStore#update}), so concurrent patches cannot both pass a rule on one version.
 */
public final class CampaignPatch {
  /** The body member that allows reopening an ended campaign; it is not a field of the campaign. */
  public static final String REOPEN = "reopen";

  private static final String ID = "id";

  private final Map<Field, Object> values;
  private final boolean reopen;
  private final OptionalLong expectedVersion;

  private CampaignPatch(Map<Field, Object> values, boolean reopen, OptionalLong expectedVersion) {
    this.values = Collections.unmodifiableMap(new EnumMap<>(values));
    this.reopen = reopen;
    this.expectedVersion = expectedVersion;
  }

  /**
   * The patch of the campaign {@code id} that a JSON object asks for (its members as decoded: {@code
   * String}, {@code Integer}, {@code Boolean}, null, ...).
   *
   * @throws InvalidInputException for an unknown member or a value of the wrong type
   */
  public static CampaignPatch of(
      CampaignId id, Map<String, Object> body, OptionalLong expectedVersion) {
    Map<Field, Object> values = new EnumMap<>(Field.class);
    boolean reopen = false;
    for (Map.Entry<String, Object> member : body.entrySet()) {
      String name = member.getKey();
      Object value = member.getValue();
      if (name.equals(ID)) {
        if (!id.value().equals(value)) {
          throw new InvalidInputException(ID, "the id of a campaign cannot change");
        }
      } else if (name.equals(REOPEN)) {
        if (!(value instanceof Boolean flag)) {
          throw new InvalidInputException(REOPEN, "reopen must be true or false");
        }
        reopen = flag;
      } else {
        Field field =
            Field.ofWireName(name)
                .orElseThrow(
                    () ->
                        new InvalidInputException(
                            name,
                            "'"
                                + name
                                + "' cannot be changed; a patch takes name, startsAt, endsAt,"
                                + " perUserLimit, paused and reopen"));
        values.put(field, field.fromJson(value));
      }
    }
    return new CampaignPatch(values, reopen, expectedVersion);
  }

  /** Whether the patch sets {@code field}. */
  public boolean sets(Field field) {
    return values.containsKey(field);
  }

  /**
   * The campaign after the patch, one version on, or empty when the patch changes nothing (then
   * nothing is written). {@code assigned} counts the campaign's assigned coupons; it is read only
   * when the patch lowers {@code perUserLimit}.
   *
   * @throws InvalidInputException when the result breaks a rule of a campaign (400)
   * @throws CampaignChangeRefused when a rule of changes refuses it (409, 412)
   */
  public Optional<Campaign> applyTo(Campaign current, Instant now, LongSupplier assigned) {
    if (expectedVersion.isPresent() && expectedVersion.getAsLong() != current.version()) {
      throw new CampaignChangeRefused(
          CampaignChangeRefused.Reason.VERSION_MISMATCH,
          "the campaign is at version "
              + current.version()
              + ", not "
              + expectedVersion.getAsLong()
              + "; read it again");
    }
    Campaign next =
        new Campaign(
            current.id(),
            (String) value(Field.NAME, current),
            (Integer) value(Field.PER_USER_LIMIT, current),
            (Instant) value(Field.STARTS_AT, current),
            (Instant) value(Field.ENDS_AT, current),
            current.createdAt(),
            (Boolean) value(Field.PAUSED, current),
            current.version() + 1);
    if (sameFields(current, next)) {
      return Optional.empty();
    }
    if (next.perUserLimit() < current.perUserLimit()) {
      boolean serving = current.windowAt(now) == Campaign.Window.OPEN && !current.paused();
      if (serving || assigned.getAsLong() > 0) {
        throw new CampaignChangeRefused(
            CampaignChangeRefused.Reason.LIMIT_LOCKED,
            "perUserLimit can only rise once coupons are assigned or while claims are served;"
                + " it can drop only while no coupon is assigned and the campaign is not open or"
                + " paused");
      }
    }
    if (current.windowAt(now) == Campaign.Window.ENDED
        && next.windowAt(now) != Campaign.Window.ENDED
        && !reopen) {
      throw new CampaignChangeRefused(
          CampaignChangeRefused.Reason.ENDED,
          "the campaign ended at "
              + current.endsAt()
              + "; to open it again, send \"reopen\": true with the new window");
    }
    return Optional.of(next);
  }

  private Object value(Field field, Campaign current) {
    return values.containsKey(field) ? values.get(field) : field.valueOf(current);
  }

  private static boolean sameFields(Campaign a, Campaign b) {
    return Arrays.stream(Field.values())
        .allMatch(f -> java.util.Objects.equals(f.valueOf(a), f.valueOf(b)));
  }

  /** The fields a patch changes, by their names in the API. */
  public enum Field {
    NAME("name"),
    STARTS_AT("startsAt"),
    ENDS_AT("endsAt"),
    PER_USER_LIMIT("perUserLimit"),
    PAUSED("paused");

    private final String wireName;

    Field(String wireName) {
      this.wireName = wireName;
    }

    public String wireName() {
      return wireName;
    }

    public static Optional<Field> ofWireName(String name) {
      return Arrays.stream(values()).filter(f -> f.wireName.equals(name)).findFirst();
    }

    /** The field's value in {@code campaign}. */
    public Object valueOf(Campaign campaign) {
      return switch (this) {
        case NAME -> campaign.name();
        case STARTS_AT -> campaign.startsAt();
        case ENDS_AT -> campaign.endsAt();
        case PER_USER_LIMIT -> campaign.perUserLimit();
        case PAUSED -> campaign.paused();
      };
    }

    /** A value of the field from its text ({@code toString} of the value). */
    Object parse(String text) {
      return switch (this) {
        case NAME -> text;
        case STARTS_AT, ENDS_AT -> Instant.parse(text);
        case PER_USER_LIMIT -> Integer.valueOf(text);
        case PAUSED -> Boolean.valueOf(text);
      };
    }

    /** The value of a JSON member; the range of each is the campaign's to judge. */
    private Object fromJson(Object value) {
      switch (this) {
        case NAME -> {
          if (value instanceof String text) {
            return text;
          }
          throw new InvalidInputException(wireName, "name must be a string");
        }
        case STARTS_AT, ENDS_AT -> {
          if (value == null) {
            return null;
          }
          if (value instanceof String text) {
            try {
              return Instant.parse(text);
            } catch (DateTimeParseException e) {
              // answered below
            }
          }
          throw new InvalidInputException(
              wireName,
              wireName + " must be null or an ISO-8601 instant such as 2030-01-01T00:00:00Z");
        }
        case PER_USER_LIMIT -> {
          if (value instanceof Integer number) {
            return number;
          }
          throw new InvalidInputException(wireName, "perUserLimit must be a whole number");
        }
        case PAUSED -> {
          if (value instanceof Boolean flag) {
            return flag;
          }
          throw new InvalidInputException(wireName, "paused must be true or false");
        }
      }
      throw new IllegalStateException(name());
    }
  }
}
