package flashclaim.claim;

import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.QueryDocumentSnapshot;
import com.google.cloud.Timestamp;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreContents;
import flashclaim.testing.TestEmulator;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** G1-G5 on Firestore (the emulator), default strategy. */
class FirestoreClaimGuaranteesTest extends ClaimGuaranteesContract {

  @Override
  protected Map<String, Object> storeProperties() {
    return Map.of();
  }

  @Override
  protected void resetStore() {
    TestEmulator.reset();
  }

  @Override
  protected List<StoredCoupon> storedCoupons(String campaign) {
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

  @Override
  protected List<StoredClaim> storedClaims(String campaign) {
    return StoreContents.claims(campaign).stream()
        .map(
            (QueryDocumentSnapshot d) ->
                new StoredClaim(
                    d.getId(), d.getString("userKey"), d.getString("couponId"), d.getString("code")))
        .toList();
  }

  @Override
  protected void killAbruptly(ServiceInstance instance) {
    instance.context().getBean(Firestore.class).shutdownNow();
    instance.close();
  }

  private static Instant instant(Timestamp t) {
    return t == null ? null : t.toDate().toInstant().plusNanos(t.getNanos() % 1_000_000);
  }
}
