package flashclaim.store.firestore;

import com.google.cloud.firestore.CollectionReference;
import com.google.cloud.firestore.DocumentReference;
import com.google.cloud.firestore.Firestore;
import flashclaim.Sha256;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CouponCode;

/**
 * Collection, document and field names of the Firestore layout (docs/design.md), in one place:
 *
 * <pre>
 * campaigns/{campaignId}
 * campaigns/{campaignId}/coupons/{couponId}   couponId = first 128 bits of SHA-256(code), hex
 * campaigns/{campaignId}/claims/{claimId}     claimId = userKey for slot 0, userKey-slot after
 * campaigns/{campaignId}/seedings/{autoId}    one per committed seeding batch: {@code added}
 * campaigns/{campaignId}/changes/{version}    one per change, version as 19 digits: {@code version,
 *                                             by, at, before, after}
 * locks/{lockId}                              lockId = SHA-256(lock key), hex
 * guards/{lockId}                             lockId = SHA-256 of the guarded resource's key
 * idempotency/{recordId}                      recordId = SHA-256 of caller + "\n" + key
 * admission-fleet/{instanceId}                 per instance whose book reaches ahead: {@code
 *                                              instance, bookedMillis, writtenAt}; instanceId a
 *                                              random UUID; {instanceId}.{k} with an interval
 *                                              under 1 s (FirestoreFleetBoard)
 * </pre>
 *
 * A coupon's {@code assignedTo} is the id of the claim record that names it (so the holder's user
 * key, with the slot for slots after the first); a claim record holds {@code couponId, code,
 * claimedAt} and nothing about the user but its id, derived from the SHA-256 of the user id. Each
 * field costs index entries on every write (Firestore indexes every field by default), so the
 * documents carry nothing that can be derived.
 *
 * <p>A campaign document also counts the seeding calls that began ({@code seedingsBegun}, moved
 * before a call's first coupon is written) and that ended ({@code seedingsEnded}, moved after its
 * last), and holds {@code seedingUntil}, the latest moment until which a call that began may still
 * write: the additions counter of the sold-out fast path, written twice per seeding call and never
 * per coupon. All three are absent until the first seeding. Each seeding batch also creates a
 * seeding record holding how many coupons the batch created, in the same atomic batch: the sum of
 * a campaign's records is its number of coupons, read without counting them.
 *
 * <p>A coupon that a shop reported redeemed also holds {@code redemptionState} ({@code redeemed}, or
 * {@code assigned} after the order was cancelled), the {@code orderId} of the last redemption event
 * applied, and {@code redeemedAt} / {@code cancelledAt}; a coupon without them was never redeemed.
 * A lock holds its {@code owner} (null while free), {@code lockedUntil} and the {@code fence}
 * (fencing token) of its latest acquisition; it is never deleted, so the token never restarts.
 *
 * <p>Coupon ids are hashes, so they are spread evenly over the key space (no sequential hot spot) and
 * adding the same code twice finds the same document, which makes seeding idempotent.
 */
public final class FirestoreLayout {
  static final String CAMPAIGNS = "campaigns";
  static final String COUPONS = "coupons";
  static final String CLAIMS = "claims";
  static final String SEEDINGS = "seedings";
  static final String CHANGES = "changes";
  static final String LOCKS = "locks";

  // campaign fields
  static final String NAME = "name";
  static final String PER_USER_LIMIT = "perUserLimit";
  public static final String STARTS_AT = "startsAt";
  static final String ENDS_AT = "endsAt";
  static final String CREATED_AT = "createdAt";
  static final String PAUSED = "paused";
  static final String VERSION = "version";
  static final String SEEDINGS_BEGUN = "seedingsBegun";
  static final String SEEDINGS_ENDED = "seedingsEnded";
  static final String SEEDING_UNTIL = "seedingUntil";

  // coupon fields
  static final String CODE = "code";
  static final String IS_ASSIGNED = "isAssigned";
  static final String ASSIGNED_TO = "assignedTo";
  static final String ASSIGNED_AT = "assignedAt";
  static final String RANDOM_FLOAT = "randomFloat";
  static final String REDEMPTION_STATE = "redemptionState";
  static final String ORDER_ID = "orderId";
  static final String REDEEMED_AT = "redeemedAt";
  static final String CANCELLED_AT = "cancelledAt";

  // change record fields: before and after map each changed field to its value as text
  static final String CHANGED_BY = "by";
  static final String CHANGED_AT = "at";
  static final String BEFORE = "before";
  static final String AFTER = "after";

  // seeding record fields
  static final String ADDED = "added";

  // claim fields
  static final String COUPON_ID = "couponId";
  static final String CLAIMED_AT = "claimedAt";

  // lock fields
  static final String OWNER = "owner";
  static final String LOCKED_UNTIL = "lockedUntil";
  static final String FENCE = "fence";
  // modification guards and idempotency records; EXPIRES_AT is the field of their TTL policies
  static final String GUARDS = "guards";
  static final String IDEMPOTENCY = "idempotency";
  static final String EXPIRES_AT = "expiresAt";
  static final String STATE = "state";
  static final String FINGERPRINT = "fingerprint";
  static final String STATUS = "status";
  static final String CONTENT_TYPE = "contentType";
  static final String LOCATION = "location";
  static final String BODY = "body";
  static final String BODY_STORED = "bodyStored";
  static final String IN_FLIGHT = "in-flight";
  static final String COMPLETED = "completed";
  // the admission's fleet board
  static final String ADMISSION_FLEET = "admission-fleet";
  static final String INSTANCE = "instance";
  static final String BOOKED_MILLIS = "bookedMillis";
  static final String HELD_FROM_MILLIS = "heldFromMillis";
  static final String WRITTEN_AT = "writtenAt";

  private FirestoreLayout() {}

  public static DocumentReference campaign(Firestore db, CampaignId id) {
    return db.collection(CAMPAIGNS).document(id.value());
  }

  static CollectionReference coupons(Firestore db, CampaignId id) {
    return campaign(db, id).collection(COUPONS);
  }

  public static CollectionReference claims(Firestore db, CampaignId id) {
    return campaign(db, id).collection(CLAIMS);
  }

  static CollectionReference seedings(Firestore db, CampaignId id) {
    return campaign(db, id).collection(SEEDINGS);
  }

  static CollectionReference changes(Firestore db, CampaignId id) {
    return campaign(db, id).collection(CHANGES);
  }

  /** The id of the change record of {@code version}: 19 digits, so ids sort as versions do. */
  static String changeId(long version) {
    return String.format("%019d", version);
  }

  static DocumentReference lock(Firestore db, String lockId) {
    return db.collection(LOCKS).document(lockId);
  }

  static DocumentReference guard(Firestore db, String lockId) {
    return db.collection(GUARDS).document(lockId);
  }

  static DocumentReference idempotencyRecord(Firestore db, String recordId) {
    return db.collection(IDEMPOTENCY).document(recordId);
  }

  static CollectionReference admissionFleet(Firestore db) {
    return db.collection(ADMISSION_FLEET);
  }

  static String couponId(CouponCode code) {
    return Sha256.hex(code.value(), 16);
  }

  static String claimId(String userKey, int slot) {
    return slot == 0 ? userKey : userKey + SLOT_SEPARATOR + slot;
  }

  /** The user key of a claim id. */
  static String userKeyOf(String claimId) {
    int separator = claimId.indexOf(SLOT_SEPARATOR);
    return separator < 0 ? claimId : claimId.substring(0, separator);
  }

  /** The slot of a claim id, or -1 when the id is not a claim id. */
  static int slotOf(String claimId) {
    int separator = claimId.indexOf(SLOT_SEPARATOR);
    if (separator < 0) {
      return 0;
    }
    try {
      return Integer.parseInt(claimId.substring(separator + 1));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static final char SLOT_SEPARATOR = '-';
}
