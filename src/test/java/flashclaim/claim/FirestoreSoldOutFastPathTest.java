package flashclaim.claim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.Timestamp;
import com.google.cloud.firestore.DocumentReference;
import com.google.cloud.firestore.DocumentSnapshot;
import com.google.cloud.firestore.FieldValue;
import flashclaim.store.firestore.QueryRecorder;
import flashclaim.testing.ClaimStoreCalls;
import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.TestEmulator;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The sold-out fast path on Firestore (the emulator), pool queries counted on the wire; and the
 * seeding marks on the campaign document that make it exact: every call counted as begun and as
 * ended, and a call that began and never ended (its instance died) keeping proofs off until its
 * lease is over.
 */
class FirestoreSoldOutFastPathTest extends SoldOutFastPathContract {
  private static final long LEASE_SECONDS = 4;
  private final StoreBackend backend = new FirestoreBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }

  @Override
  protected Map<String, Object> instanceProperties() {
    return Map.of(ClaimStoreCalls.PROPERTY, "true", QueryRecorder.PROPERTY, "true");
  }

  /** Queries of the campaign's coupons as the instance's Firestore client sent them. */
  @Override
  protected long poolQueries(int i, String campaign) {
    return instances.get(i).context().getBean(QueryRecorder.class).recorded().stream()
        .filter(q -> q.parent().endsWith("/campaigns/" + campaign))
        .filter(q -> q.query().getFrom(0).getCollectionId().equals("coupons"))
        .count();
  }

  @Test
  void everySeedingCallIsCountedAsBegunAndEnded() throws Exception {
    String campaign = newCampaign(1, 0);
    // six calls at once through three instances, each half new, half another call's codes
    runAll(
        6,
        i ->
            () -> {
              addCodes(i % INSTANCES, campaign, codes(campaign, i * 10, i * 10 + 20));
              return null;
            });

    DocumentSnapshot doc = campaignDoc(campaign).get().get(60, TimeUnit.SECONDS);
    assertThat(doc.getLong("seedingsBegun")).isEqualTo(6);
    assertThat(doc.getLong("seedingsEnded")).isEqualTo(6);
    assertThat(doc.getTimestamp("seedingUntil")).isNotNull();
    assertThat(backend().coupons(campaign)).hasSize(70);
  }

  /**
   * A seeding call whose instance died after it began: its marks say "begun" and never "ended".
   * While its lease lasts, an empty pool proves nothing (its last batch may still land), so the
   * coupon that does land is found; after the lease, proofs count again.
   */
  @Test
  void aSeedingThatBeganAndNeverEndedKeepsProofsOffUntilItsLeaseIsOver() throws Exception {
    String campaign = newCampaign(1, 1);
    assertThat(claim(0, campaign, "first").status()).isEqualTo(201);
    for (int j = 0; j < 3; j++) {
      assertThat(claim(0, campaign, "before-" + j).status()).isEqualTo(410);
    }
    long proven = proofs(0).provenSoldOuts();
    assertThat(proven).as("proven sold-outs before the seeding began").isPositive();

    // The dead call's begin, as FirestoreCouponStore writes it.
    Timestamp leaseEnd =
        Timestamp.ofTimeSecondsAndNanos(Timestamp.now().getSeconds() + LEASE_SECONDS, 0);
    campaignDoc(campaign)
        .update(Map.of("seedingsBegun", FieldValue.increment(1), "seedingUntil", leaseEnd))
        .get(60, TimeUnit.SECONDS);
    long queries = poolQueries(0, campaign);
    for (int j = 0; j < 3; j++) {
      assertThat(claim(0, campaign, "during-" + j).status()).isEqualTo(410);
    }
    assertThat(proofs(0).provenSoldOuts()).as("no proof while a seeding is in progress").isEqualTo(proven);
    assertThat(poolQueries(0, campaign)).isGreaterThanOrEqualTo(queries + 3);

    // Its last batch lands late.
    Map<String, Object> coupon = new HashMap<>();
    coupon.put("code", campaign + "-late");
    coupon.put("isAssigned", false);
    coupon.put("randomFloat", 0.5);
    campaignDoc(campaign).collection("coupons").document("late").create(coupon).get(60, TimeUnit.SECONDS);
    assertThat(claim(0, campaign, "after-late-batch").status()).isEqualTo(201);

    while (Timestamp.now().compareTo(leaseEnd) <= 0) {
      Thread.sleep(100);
    }
    for (int j = 0; j < 3; j++) {
      assertThat(claim(0, campaign, "after-lease-" + j).status()).isEqualTo(410);
    }
    assertThat(proofs(0).provenSoldOuts()).as("proofs count again after the lease").isGreaterThan(proven);
    assertStoreConsistent(campaign, 2);
  }

  /** A lease too short for a batch to end before it does: the instance refuses to start. */
  @Test
  void aSeedingLeaseShorterThanThreeCallTimeoutsRefusesToStart() {
    assertThatThrownBy(
            () ->
                ServiceInstance.start(
                    Map.of(
                        "flashclaim.seeding.max-duration", "10s",
                        "flashclaim.firestore.call-timeout", "5s")))
        .hasStackTraceContaining("flashclaim.seeding.max-duration");
  }

  private static DocumentReference campaignDoc(String campaign) {
    return TestEmulator.firestore().collection("campaigns").document(campaign);
  }
}
