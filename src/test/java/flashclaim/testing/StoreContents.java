package flashclaim.testing;

import java.util.TreeSet;
import java.util.Set;
import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.CollectionReference;
import com.google.cloud.firestore.DocumentReference;
import com.google.cloud.firestore.DocumentSnapshot;
import com.google.cloud.firestore.QueryDocumentSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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

  /**
   * Every document of the emulator by path, with its update time: a write of any kind changes it.
   * One collection-group query per collection id (the root collections, and the subcollections the
   * service writes under a campaign), so a snapshot costs a few reads however many documents there
   * are; a document that only holds subcollections is seen through those.
   */
  public static Map<String, String> snapshot() {
    Firestore db = TestEmulator.firestore();
    Set<String> collectionIds = new TreeSet<>(SUBCOLLECTIONS);
    db.listCollections().forEach(c -> collectionIds.add(c.getId()));
    Map<String, String> documents = new TreeMap<>();
    for (String id : collectionIds) {
      List<QueryDocumentSnapshot> found;
      try {
        found = db.collectionGroup(id).get().get(60, TimeUnit.SECONDS).getDocuments();
      } catch (Exception e) {
        throw new IllegalStateException("reading collection group " + id, e);
      }
      for (QueryDocumentSnapshot doc : found) {
        documents.put(doc.getReference().getPath(), String.valueOf(doc.getUpdateTime()));
      }
    }
    return documents;
  }

  /** The subcollections the service writes under a campaign document. */
  private static final List<String> SUBCOLLECTIONS = List.of("coupons", "claims");
}
