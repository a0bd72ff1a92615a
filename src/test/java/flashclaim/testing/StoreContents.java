package flashclaim.testing;

import com.google.cloud.firestore.QueryDocumentSnapshot;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** What the emulator holds, read directly with the test's own client (not through the service). */
public final class StoreContents {
  private StoreContents() {}

  public static List<QueryDocumentSnapshot> coupons(String campaign) {
    return all("campaigns/" + campaign + "/coupons");
  }

  public static List<QueryDocumentSnapshot> claims(String campaign) {
    return all("campaigns/" + campaign + "/claims");
  }

  public static List<QueryDocumentSnapshot> all(String collection) {
    try {
      return TestEmulator.firestore().collection(collection).get().get(60, TimeUnit.SECONDS).getDocuments();
    } catch (Exception e) {
      throw new IllegalStateException("reading " + collection, e);
    }
  }
}
