package flashclaim.campaign;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One recorded change of a campaign: who made it (the admin token's subject), when, the version it
 * produced, and the changed fields with their values before and after. Values are those of {@link
 * CampaignPatch.Field#valueOf}: a {@code String}, an {@code Integer}, a {@code Boolean}, an {@code
 * Instant}, or null (an open-ended bound).
 */
public record CampaignChange(
    CampaignId campaignId,
    long version,
    String by,
    Instant at,
    Map<String, Object> before,
    Map<String, Object> after) {

  public CampaignChange {
    Objects.requireNonNull(campaignId, "campaignId");
    Objects.requireNonNull(by, "by");
    Objects.requireNonNull(at, "at");
    before = ordered(before);
    after = ordered(after);
  }

  /** The values of the fields in the order of {@link CampaignPatch.Field}, whatever the store's. */
  private static Map<String, Object> ordered(Map<String, Object> values) {
    Map<String, Object> ordered = new LinkedHashMap<>();
    for (CampaignPatch.Field field : CampaignPatch.Field.values()) {
      if (values.containsKey(field.wireName())) {
        ordered.put(field.wireName(), values.get(field.wireName()));
      }
    }
    return Collections.unmodifiableMap(ordered);
  }

  /** The change from {@code from} to {@code to}: the fields whose values differ. */
  public static CampaignChange between(Campaign from, Campaign to, String by, Instant at) {
    Map<String, Object> before = new LinkedHashMap<>();
    Map<String, Object> after = new LinkedHashMap<>();
    for (CampaignPatch.Field field : CampaignPatch.Field.values()) {
      Object was = field.valueOf(from);
      Object is = field.valueOf(to);
      if (!Objects.equals(was, is)) {
        before.put(field.wireName(), was);
        after.put(field.wireName(), is);
      }
    }
    return new CampaignChange(to.id(), to.version(), by, at, before, after);
  }

  /** A value of {@code field} as a store kept it as text ({@link #text}); null stays null. */
  public static Object parse(String field, String text) {
    if (text == null) {
      return null;
    }
    return CampaignPatch.Field.ofWireName(field)
        .map(f -> f.parse(text))
        .orElseThrow(() -> new IllegalArgumentException("no campaign field " + field));
  }

  /** A value as text, for a store that keeps values as text; null stays null. */
  public static String text(Object value) {
    return value == null ? null : value.toString();
  }
}
