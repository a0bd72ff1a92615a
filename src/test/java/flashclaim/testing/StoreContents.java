package flashclaim.testing;

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
   * Every document of the emulator, existing or only holding subcollections, by path, with its
   * update time: a write of any kind anywhere changes it. The documents of a collection are read
   * at once.
   */
  public static Map<String, String> snapshot() {
    Map<String, String> documents = new TreeMap<>();
    TestEmulator.firestore().listCollections().forEach(c -> collect(c, documents));
    return documents;
  }

  private static void collect(CollectionReference collection, Map<String, String> documents) {
    List<DocumentReference> references = new ArrayList<>();
    collection.listDocuments().forEach(references::add);
    if (references.isEmpty()) {
      return;
    }
    List<DocumentSnapshot> snapshots;
    try {
      snapshots =
          TestEmulator.firestore()
              .getAll(references.toArray(DocumentReference[]::new))
              .get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("reading " + collection.getPath(), e);
    }
    for (DocumentSnapshot snapshot : snapshots) {
      documents.put(
          snapshot.getReference().getPath(),
          snapshot.exists() ? String.valueOf(snapshot.getUpdateTime()) : "missing");
    }
    references.forEach(document -> document.listCollections().forEach(c -> collect(c, documents)));
  }
}
