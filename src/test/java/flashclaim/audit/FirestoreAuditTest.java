package flashclaim.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.firestore.DocumentReference;
import com.google.cloud.firestore.FieldValue;
import com.google.cloud.firestore.Firestore;
import flashclaim.Sha256;
import flashclaim.testing.Api;
import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.TestEmulator;
import flashclaim.testing.Tokens;
import java.util.Map;

/** The streamed, consistent audit on Firestore (the emulator). */
class FirestoreAuditTest extends AuditContract {
  private final StoreBackend backend = new FirestoreBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }

  @Override
  protected void corrupt(String campaign, String heldCode, String freeCode) throws Exception {
    Firestore db = TestEmulator.firestore();
    DocumentReference campaignDoc = db.collection("campaigns").document(campaign);
    String intruder = Sha256.hex("intruder");
    campaignDoc
        .collection("claims")
        .document(intruder + "-5")
        .create(Map.of("couponId", Sha256.hex(heldCode, 16), "code", heldCode))
        .get();
    campaignDoc
        .collection("coupons")
        .document(Sha256.hex(freeCode, 16))
        .update(Map.of("isAssigned", true, "assignedTo", Sha256.hex("squatter")))
        .get();
  }

  /** A coupon without {@code randomFloat}: the probe, ordered by it, never returns it. */
  @Override
  protected void hideFromClaims(String campaign, String freeCode) throws Exception {
    TestEmulator.firestore()
        .collection("campaigns")
        .document(campaign)
        .collection("coupons")
        .document(couponId(freeCode))
        .update(Map.of("randomFloat", FieldValue.delete()))
        .get();
  }

  /**
   * The fields the probe queries and orders by, in a transaction that checks the coupon is still
   * free; then the code sent once more, which moves the campaign's additions counter.
   */
  @Override
  protected void offerAgain(String campaign, String freeCode) throws Exception {
    Firestore db = TestEmulator.firestore();
    DocumentReference coupon =
        db.collection("campaigns")
            .document(campaign)
            .collection("coupons")
            .document(couponId(freeCode));
    db.runTransaction(
            tx -> {
              assertThat(tx.get(coupon).get().get("assignedTo")).isNull();
              tx.update(coupon, Map.of("isAssigned", false, "randomFloat", Math.random()));
              return null;
            })
        .get();
    Api.Response again =
        Api.post(
            instance(0),
            "/v1/admin/campaigns/" + campaign + "/coupons",
            Tokens.admin(),
            "{\"codes\":[\"" + freeCode + "\"]}");
    assertThat(again.status()).as(again.body()).isEqualTo(200);
    assertThat(again.json()).containsEntry("added", 0).containsEntry("skipped", 1);
  }

  @Override
  protected String couponId(String code) {
    return Sha256.hex(code, 16);
  }
}
