package flashclaim.testing;

import com.google.cloud.Timestamp;
import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.QueryDocumentSnapshot;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** The Firestore emulator of the test run as a {@link StoreBackend}. */
public final class FirestoreBackend implements StoreBackend {

  @Override
  public Map<String, Object> properties() {
    return Map.of();
  }

  @Override
  public void reset() {
    TestEmulator.reset();
  }

  @Override
  public List<StoredCoupon> coupons(String campaign) {
    return StoreContents.coupons(campaign).stream()
        .map(
            d ->
                new StoredCoupon(
                    d.getId(),
                    d.getString("code"),
                    Boolean.TRUE.equals(d.getBoolean("isAssigned")),
                    d.getString("assignedTo"),
                    instant(d.getTimestamp("assignedAt"))))
        .toList();
  }

  /** A claim's holder is its document id, which a coupon names in {@code assignedTo}. */
  @Override
  public List<StoredClaim> claims(String campaign) {
    return StoreContents.claims(campaign).stream()
        .map(
            d ->
                new StoredClaim(d.getId(), d.getId(), d.getString("couponId"), d.getString("code")))
        .toList();
  }

  @Override
  public StoredRedemption redemption(String campaign, String code) {
    QueryDocumentSnapshot doc =
        StoreContents.coupons(campaign).stream()
            .filter(d -> code.equals(d.getString("code")))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no coupon " + code + " in " + campaign));
    return new StoredRedemption(
        doc.getString("redemptionState"),
        doc.getString("orderId"),
        instant(doc.getTimestamp("redeemedAt")),
        instant(doc.getTimestamp("cancelledAt")));
  }

  @Override
  public Map<String, String> snapshot() {
    return StoreContents.snapshot();
  }

  @Override
  public List<StoredGuard> guards() {
    return StoreContents.all("guards").stream()
        .map(d -> new StoredGuard(d.getId(), instant(d.getTimestamp("expiresAt"))))
        .toList();
  }

  @Override
  public List<StoredIdempotencyRecord> idempotencyRecords() {
    return StoreContents.all("idempotency").stream()
        .map(
            d ->
                new StoredIdempotencyRecord(
                    d.getId(),
                    "completed".equals(d.getString("state")),
                    instant(d.getTimestamp("expiresAt")),
                    Boolean.TRUE.equals(d.getBoolean("bodyStored"))))
        .toList();
  }

  /** Shuts the instance's Firestore client down at once. */
  @Override
  public void cutOff(ServiceInstance instance) {
    instance.context().getBean(Firestore.class).shutdownNow();
  }

  private static Instant instant(Timestamp t) {
    return t == null ? null : Instant.ofEpochSecond(t.getSeconds(), t.getNanos());
  }
}
