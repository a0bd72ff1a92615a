package flashclaim.http.admin;

import flashclaim.InvalidInputException;
import flashclaim.campaign.Campaign;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CampaignPage;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The paging parameters of the admin lists: {@code limit} (1 to {@value #MAX_LIMIT}, {@value
 * #DEFAULT_LIMIT} when absent) and {@code cursor}, an opaque token that a page gives for the next
 * one (base64url of the position of its last item). A malformed value is answered 400.
 */
final class Pages {
  static final int DEFAULT_LIMIT = 20;
  static final int MAX_LIMIT = 100;
  private static final String CAMPAIGNS = "c1";
  private static final String CHANGES = "v1";

  private Pages() {}

  /** The page size asked for, or the default. */
  static int limit(String limit) {
    if (limit == null) {
      return DEFAULT_LIMIT;
    }
    try {
      int n = Integer.parseInt(limit);
      if (n >= 1 && n <= MAX_LIMIT && limit.equals(Integer.toString(n))) {
        return n;
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw new InvalidInputException(
        "limit", "limit must be a whole number from 1 to " + MAX_LIMIT);
  }

  static String campaignsCursor(CampaignPage.After after) {
    return encode(
        CAMPAIGNS
            + ":"
            + after.createdAt().getEpochSecond()
            + ":"
            + after.createdAt().getNano()
            + ":"
            + after.id().value());
  }

  static Optional<CampaignPage.After> campaignsAfter(String cursor) {
    if (cursor == null) {
      return Optional.empty();
    }
    String[] parts = decode(cursor).split(":", 4);
    try {
      if (parts.length == 4 && parts[0].equals(CAMPAIGNS)) {
        Instant createdAt =
            Instant.ofEpochSecond(Long.parseLong(parts[1]), Long.parseLong(parts[2]));
        if (!createdAt.isBefore(Campaign.EARLIEST) && !createdAt.isAfter(Campaign.LATEST)) {
          return Optional.of(new CampaignPage.After(createdAt, new CampaignId(parts[3])));
        }
      }
    } catch (RuntimeException e) {
      // answered below
    }
    throw invalidCursor();
  }

  static String changesCursor(long below) {
    return encode(CHANGES + ":" + below);
  }

  static OptionalLong changesBelow(String cursor) {
    if (cursor == null) {
      return OptionalLong.empty();
    }
    String[] parts = decode(cursor).split(":", 2);
    try {
      if (parts.length == 2 && parts[0].equals(CHANGES)) {
        long below = Long.parseLong(parts[1]);
        if (below >= 0) {
          return OptionalLong.of(below);
        }
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw invalidCursor();
  }

  private static String encode(String position) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(position.getBytes(StandardCharsets.UTF_8));
  }

  private static String decode(String cursor) {
    if (cursor.length() > 200) {
      throw invalidCursor();
    }
    try {
      return new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw invalidCursor();
    }
  }

  private static InvalidInputException invalidCursor() {
    return new InvalidInputException(
        "cursor", "cursor must be the 'next' of a page this service gave out");
  }
}
