package flashclaim.testing;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A store the service can run on, as the multi-instance tests see it: how to point instances at
 * it, how to empty it, and how to read it directly (never through the service) to check counts.
 */
public interface StoreBackend {

  /** The backend of a store by its {@code flashclaim.store} name. */
  static StoreBackend named(String store) {
    return switch (store) {
      case "firestore" -> new FirestoreBackend();
      case "postgres" -> new PostgresBackend();
      default -> throw new IllegalArgumentException("no store " + store);
    };
  }

  /** Properties that point an instance at this shared store. */
  Map<String, Object> properties();

  /** Empties the store. */
  void reset();

  /** The coupons of a campaign as stored. */
  List<StoredCoupon> coupons(String campaign);

  /** The claim records of a campaign as stored. */
  List<StoredClaim> claims(String campaign);

  /** The redemption fields of the coupon with this code; all null when it was never redeemed. */
  StoredRedemption redemption(String campaign, String code);

  /**
   * Every record of the store with its version: two snapshots are equal only if nothing at all
   * was written in between.
   */
  Map<String, String> snapshot();

  /** The modification guards as stored. */
  List<StoredGuard> guards();

  /** The idempotency records as stored. */
  List<StoredIdempotencyRecord> idempotencyRecords();

  /** Cuts the instance's connection to the store at once; its in-flight store work fails. */
  void cutOff(ServiceInstance instance);

  /**
   * Properties of an instance that will be {@link #cutOff}: its store calls fail after the shortest
   * wait the store's client allows rather than after the production timeouts. Empty when they fail
   * at once anyway.
   */
  default Map<String, Object> cutOffProperties() {
    return Map.of();
  }

  /** Stops an instance without letting it finish its in-flight store work. */
  default void killAbruptly(ServiceInstance instance) {
    cutOff(instance);
    instance.close();
  }

  /** A coupon as stored; {@code holder} is null while unassigned. */
  record StoredCoupon(String id, String code, boolean assigned, String holder, Instant assignedAt) {}

  /** A coupon's redemption fields as stored. */
  record StoredRedemption(String state, String orderId, Instant redeemedAt, Instant cancelledAt) {}

  /** A modification guard as stored: its id and when it becomes stale. */
  record StoredGuard(String id, Instant expiresAt) {}

  /** An idempotency record as stored. */
  record StoredIdempotencyRecord(String id, boolean completed, Instant expiresAt, boolean bodyStored) {}

  /** A claim record as stored. */
  record StoredClaim(String id, String holder, String couponId, String code) {}
}
