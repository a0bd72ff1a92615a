package flashclaim.store.firestore;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.Timestamp;
import com.google.cloud.firestore.CollectionReference;
import com.google.cloud.firestore.DocumentReference;
import com.google.cloud.firestore.DocumentSnapshot;
import flashclaim.guard.GuardedResource;
import flashclaim.guard.ModificationGuard;
import flashclaim.testing.Api;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.TestEmulator;
import flashclaim.testing.Tokens;
import flashclaim.testing.Webhooks;
import io.micronaut.core.type.Argument;
import io.micronaut.serde.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Production write scaling on Firestore: a collection whose indexed field values grow
 * monotonically (time stamps, counters) takes about 500 writes per second, because every new
 * index entry lands at the same end of the index. So every field that the service writes with a
 * time or another growing number must be exempt from single-field indexing in {@code
 * firestore.indexes.json}, unless a query needs it, and document ids must stay random.
 *
 * <p>This test writes every kind of document the service writes (a campaign and a change of it,
 * coupons, claims, a
 * redemption and its cancellation under a per-coupon lock, an idempotency record, a modification
 * guard, an entry of the admission's fleet board), reads every document of the emulator back, and checks each field holding a time stamp or
 * an integer: it must have an override with no indexes, or a reason in {@link #INDEXED_ON_PURPOSE}.
 * A new such field fails the test until one of the two is added.
 */
class WriteScalingTest {
  /** Fields that keep their automatic indexes on purpose, with the reason. */
  private static final Map<String, String> INDEXED_ON_PURPOSE =
      Map.of(
          "campaigns.perUserLimit", "set by an admin, not a growing value",
          "campaigns.createdAt",
              "the list of campaigns orders by it (its descending index only); written once per"
                  + " campaign by an admin, far below the rate that strains an index",
          "changes.version",
              "a campaign's change records are read newest first by it; one per admin change",
          "seedings.added",
              "the stock's sum() aggregation reads it through its index; one per seeding batch,"
                  + " at most 499, not a growing value");

  /** Document ids of the collections written at claim rate: hashes, never sequential. */
  private static final Map<String, Pattern> RANDOM_IDS =
      Map.of(
          "coupons", Pattern.compile("[0-9a-f]{32}"),
          "claims", Pattern.compile("[0-9a-f]{64}(-[0-9]+)?"),
          "locks", Pattern.compile("[0-9a-f]{64}"),
          "guards", Pattern.compile("[0-9a-f]{64}"),
          "idempotency", Pattern.compile("[0-9a-f]{64}"));

  private static Map<String, Set<String>> fieldTypes; // "collection.field" -> value types seen
  private static Map<String, List<String>> ids; // collection -> document ids

  @BeforeAll
  static void writeEveryKindOfDocument() {
    TestEmulator.reset();
    try (ServiceInstance instance = ServiceInstance.start()) {
      URI base = instance.url();
      Api.createCampaign(base, "scaling", 1, 20);
      String code = null;
      for (int user = 0; user < 5; user++) {
        Api.Response claimed =
            Api.post(base, "/v1/campaigns/scaling/claims", Tokens.user("user-" + user), null);
        assertThat(claimed.status()).as(claimed.toString()).isEqualTo(201);
        code = (String) claimed.json().get("code");
      }
      Api.Response keyed =
          Api.send(
              Api.request(base, "/v1/campaigns/scaling/claims", Tokens.user("keyed"))
                  .header("Idempotency-Key", "key-1")
                  .POST(HttpRequest.BodyPublishers.noBody())
                  .build());
      assertThat(keyed.status()).as(keyed.toString()).isEqualTo(201);
      for (String event : List.of("redeemed", "cancelled")) {
        Api.Response delivered =
            Webhooks.deliver(base, Webhooks.body("scaling", code, "order-1", event));
        assertThat(delivered.status()).as(delivered.toString()).isEqualTo(200);
      }
      // A change of the campaign writes its next version and a change record.
      Api.Response changed =
          Api.send(
              Api.request(base, "/v1/admin/campaigns/scaling", Tokens.admin())
                  .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"name\":\"scaled\"}"))
                  .header("Content-Type", "application/merge-patch+json")
                  .build());
      assertThat(changed.status()).as(changed.toString()).isEqualTo(200);
      // A guard lives only while its request runs; enter one and keep it to see its fields.
      assertThat(
              instance
                  .context()
                  .getBean(ModificationGuard.class)
                  .enter(new GuardedResource("POST /v1/admin/campaigns/scaling")))
          .isNotNull();
    }
    // An instance's fleet entry exists while its book reaches ahead; write one to see its fields.
    new FirestoreFleetBoard(TestEmulator.firestore(), FirestoreClients.CONFIG, FirestoreClients.FLEET)
        .publish("write-scaling", Duration.ofSeconds(2), null);
    fieldTypes = new TreeMap<>();
    ids = new TreeMap<>();
    TestEmulator.firestore().listCollections().forEach(WriteScalingTest::collect);
  }

  @Test
  void everyGrowingFieldIsExemptFromSingleFieldIndexes() throws IOException {
    Set<String> exempt = exemptFields();
    Set<String> growing = new TreeSet<>();
    fieldTypes.forEach(
        (field, types) -> {
          if (types.contains("timestamp") || types.contains("integer")) {
            growing.add(field);
          }
        });
    System.out.println("Fields by value type: " + fieldTypes);
    System.out.println("Exempt from single-field indexes: " + exempt);
    // The drive above wrote what it should, so the check below is about real fields.
    assertThat(growing)
        .contains(
            "coupons.assignedAt",
            "coupons.redeemedAt",
            "coupons.cancelledAt",
            "claims.claimedAt",
            "locks.lockedUntil",
            "locks.fence",
            "guards.expiresAt",
            "idempotency.expiresAt",
            "admission-fleet.bookedMillis",
            "admission-fleet.writtenAt");
    List<String> unexplained = new ArrayList<>();
    for (String field : growing) {
      if (!exempt.contains(field) && !INDEXED_ON_PURPOSE.containsKey(field)) {
        unexplained.add(field);
      }
    }
    assertThat(unexplained)
        .as(
            "fields written with a time or a growing number that keep their single-field indexes;"
                + " exempt them in firestore.indexes.json (fieldOverrides, \"indexes\": []) or"
                + " give the reason in INDEXED_ON_PURPOSE")
        .isEmpty();
  }

  @Test
  void theExpiryOfGuardsAndIdempotencyRecordsIsATtlField() throws IOException {
    assertThat(ttlFields()).contains("guards.expiresAt", "idempotency.expiresAt");
  }

  @Test
  void documentIdsWrittenAtClaimRateAreRandom() {
    RANDOM_IDS.forEach(
        (collection, pattern) -> {
          assertThat(ids.get(collection)).as("ids of " + collection).isNotEmpty();
          assertThat(ids.get(collection))
              .as("ids of " + collection)
              .allMatch(id -> pattern.matcher(id).matches());
        });
  }

  private static void collect(CollectionReference collection) {
    for (DocumentReference document : collection.listDocuments()) {
      ids.computeIfAbsent(collection.getId(), c -> new ArrayList<>()).add(document.getId());
      DocumentSnapshot snapshot;
      try {
        snapshot = document.get().get(60, TimeUnit.SECONDS);
      } catch (Exception e) {
        throw new IllegalStateException("reading " + document.getPath(), e);
      }
      if (snapshot.exists()) {
        snapshot
            .getData()
            .forEach(
                (field, value) ->
                    fieldTypes
                        .computeIfAbsent(collection.getId() + "." + field, f -> new TreeSet<>())
                        .add(typeOf(value)));
      }
      document.listCollections().forEach(WriteScalingTest::collect);
    }
  }

  private static String typeOf(Object value) {
    if (value == null) {
      return "null";
    } else if (value instanceof Timestamp) {
      return "timestamp";
    } else if (value instanceof Long || value instanceof Integer) {
      return "integer";
    }
    return value.getClass().getSimpleName().toLowerCase();
  }

  /** "collectionGroup.fieldPath" of every override that leaves the field without indexes. */
  private static Set<String> exemptFields() throws IOException {
    Set<String> exempt = new TreeSet<>();
    for (Map<String, Object> override : overrides()) {
      Object indexes = override.get("indexes");
      if (indexes instanceof List<?> list && list.isEmpty()) {
        exempt.add(override.get("collectionGroup") + "." + override.get("fieldPath"));
      }
    }
    return exempt;
  }

  private static Set<String> ttlFields() throws IOException {
    Set<String> ttl = new TreeSet<>();
    for (Map<String, Object> override : overrides()) {
      if (Boolean.TRUE.equals(override.get("ttl"))) {
        ttl.add(override.get("collectionGroup") + "." + override.get("fieldPath"));
      }
    }
    return ttl;
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> overrides() throws IOException {
    Map<String, Object> root =
        ObjectMapper.getDefault()
            .readValue(
                Files.readString(Path.of("firestore.indexes.json")),
                Argument.mapOf(String.class, Object.class));
    return (List<Map<String, Object>>) root.getOrDefault("fieldOverrides", List.of());
  }
}
