package flashclaim.testing;

import com.google.cloud.firestore.QueryDocumentSnapshot;
import io.micronaut.core.type.Argument;
import io.micronaut.serde.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
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
      return TestEmulator.firestore()
          .collection(collection)
          .get()
          .get(60, TimeUnit.SECONDS)
          .getDocuments();
    } catch (Exception e) {
      throw new IllegalStateException("reading " + collection, e);
    }
  }

  /**
   * Every document of the emulator by path, with its update time: a write of any kind anywhere
   * creates, changes or deletes a document, so it changes this map. One query over all collections
   * at every depth (the emulator's REST API, as an admin), however many there are; listing
   * collections document by document costs a call each, which grows slow in an emulator that has
   * seen many writes. The admission's fleet board is left out: every instance writes it on a
   * timer while its appointment book reaches ahead, whatever requests come (PostgresBackend's
   * snapshot leaves its table out too).
   */
  public static Map<String, String> snapshot() {
    String documents = "projects/" + TestEmulator.PROJECT + "/databases/(default)/documents";
    HttpRequest query =
        HttpRequest.newBuilder(
                URI.create("http://" + TestEmulator.host() + "/v1/" + documents + ":runQuery"))
            .timeout(Duration.ofSeconds(60))
            .header("Authorization", "Bearer owner")
            .header("Content-Type", "application/json")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    "{\"structuredQuery\":{\"from\":[{\"allDescendants\":true}],"
                        + "\"select\":{\"fields\":[{\"fieldPath\":\"__name__\"}]}}}"))
            .build();
    List<Map<String, Object>> results;
    try {
      HttpResponse<String> response = REST.send(query, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new IllegalStateException("listing the emulator: " + response.body());
      }
      results =
          ObjectMapper.getDefault()
              .readValue(
                  response.body(), Argument.listOf(Argument.mapOf(String.class, Object.class)));
    } catch (IOException e) {
      throw new UncheckedIOException("listing the emulator", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    Map<String, String> byPath = new TreeMap<>();
    for (Map<String, Object> result : results) {
      if (result.get("document") instanceof Map<?, ?> document) {
        String path = ((String) document.get("name")).substring(documents.length() + 1);
        if (!path.startsWith(FLEET_BOARD)) {
          byPath.put(path, (String) document.get("updateTime"));
        }
      }
    }
    return byPath;
  }

  private static final String FLEET_BOARD = "admission-fleet/";
  private static final HttpClient REST = HttpClient.newHttpClient();
}
