package flashclaim.store.firestore;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.firestore.v1.StructuredQuery;
import com.google.firestore.v1.StructuredQuery.CollectionSelector;
import com.google.firestore.v1.StructuredQuery.CompositeFilter;
import com.google.firestore.v1.StructuredQuery.Direction;
import com.google.firestore.v1.StructuredQuery.FieldFilter;
import com.google.firestore.v1.StructuredQuery.FieldReference;
import com.google.firestore.v1.StructuredQuery.Filter;
import com.google.firestore.v1.StructuredQuery.Order;
import com.google.firestore.v1.Value;
import flashclaim.testing.Api;
import flashclaim.testing.Claimer;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.TestEmulator;
import flashclaim.testing.Tokens;
import flashclaim.testing.Webhooks;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Every query the code issues is covered by an index that {@code firestore.indexes.json} declares:
 * the emulator serves any query without one, real Firestore rejects it, so this test stands in for
 * production.
 *
 * <p>It starts one service instance per claim strategy with a {@link QueryRecorder} on the
 * Firestore client's channel, drives every route that queries (create a campaign, add coupons
 * given and generated, stock, claims until sold out, the caller's claims, the audit over more than
 * one page of each collection, a redemption webhook that names only the code, the export over more
 * than one page and a user's claims, the list of campaigns
 * and a campaign's change records, each over two pages), and then checks each recorded query
 * against the file by Firestore's index rules ({@link IndexCoverage}). It also checks that every query shape the code is known to issue was
 * seen, so it cannot pass by recording nothing, and that the rules reject made-up queries whose
 * index is missing.
 */
class IndexCoverageTest {
  /** Documents per audit query: fewer than the campaign's coupons and claims, so both are paged. */
  private static final int AUDIT_PAGE = 5;

  /** The query shapes of the admin routes and of the webhook: the same with every strategy. */
  private static final List<String> SHARED_SHAPES =
      List.of(
          "RunAggregationQuery COUNT OF claims",
          "RunAggregationQuery SUM,COUNT OF seedings",
          "RunQuery coupons ORDER BY __name__ ASCENDING LIMIT " + AUDIT_PAGE,
          "RunQuery coupons ORDER BY __name__ ASCENDING START_AFTER LIMIT " + AUDIT_PAGE,
          "RunQuery claims ORDER BY couponId ASCENDING, __name__ ASCENDING LIMIT " + AUDIT_PAGE,
          "RunQuery claims ORDER BY couponId ASCENDING, __name__ ASCENDING START_AFTER LIMIT "
              + AUDIT_PAGE,
          // the export of the claims, and its next page, at one read time
          "RunQuery coupons WHERE assignedTo GREATER_THAN ORDER BY assignedTo ASCENDING,"
              + " __name__ ASCENDING LIMIT " + AUDIT_PAGE,
          "RunQuery coupons WHERE assignedTo GREATER_THAN ORDER BY assignedTo ASCENDING,"
              + " __name__ ASCENDING START_AFTER LIMIT " + AUDIT_PAGE,
          // a user's claims: the range of their claim record ids
          "RunQuery coupons WHERE assignedTo GREATER_THAN AND assignedTo GREATER_THAN_OR_EQUAL AND"
              + " assignedTo LESS_THAN ORDER BY assignedTo ASCENDING",
          // a redemption webhook that names only the code: the lookup over every campaign
          "RunQuery coupons (group) WHERE code EQUAL LIMIT 2",
          // the list of campaigns, newest first, and its next page
          "RunQuery campaigns ORDER BY createdAt DESCENDING, __name__ DESCENDING LIMIT 2",
          "RunQuery campaigns ORDER BY createdAt DESCENDING, __name__ DESCENDING START_AFTER LIMIT 2",
          // a campaign's change records, newest first, and their next page
          "RunQuery changes ORDER BY version DESCENDING LIMIT 2",
          "RunQuery changes ORDER BY version DESCENDING START_AFTER LIMIT 2");

  /** Every query shape each strategy's instance is known to issue on the routes driven here. */
  private static final Map<String, List<String>> EXPECTED_SHAPES =
      Map.of(
          OptimisticClaimStrategy.NAME,
          concat(
              SHARED_SHAPES,
              // the probe from a random point
              "RunQuery coupons WHERE isAssigned EQUAL ORDER BY randomFloat ASCENDING START_AT LIMIT 200",
              // the probe over the whole range: what proves "sold out"
              "RunQuery coupons WHERE isAssigned EQUAL ORDER BY randomFloat ASCENDING LIMIT 200"),
          SeedRangeScanClaimStrategy.NAME,
          concat(
              SHARED_SHAPES,
              "RunQuery (in transaction) coupons WHERE isAssigned EQUAL AND randomFloat"
                  + " GREATER_THAN_OR_EQUAL AND randomFloat LESS_THAN ORDER BY randomFloat ASCENDING"
                  + " LIMIT 5"),
          OldestFirstClaimStrategy.NAME,
          concat(
              SHARED_SHAPES,
              "RunQuery (in transaction) coupons WHERE isAssigned EQUAL ORDER BY randomFloat"
                  + " ASCENDING LIMIT 1"));

  private static Map<String, List<QueryRecorder.Recorded>> recorded;
  private static Map<String, List<String>> unsupported;
  private static Throwable driveFailure;

  // ---------------------------------------------------------------- the service's own queries

  @Test
  void everyQueryTheServiceIssuesHasItsIndexDeclared() {
    IndexCoverage.Declared declared = declared();
    Set<String> problems = new TreeSet<>(); // one line per strategy and query shape
    Map<String, String> needs = new TreeMap<>();
    recorded()
        .forEach(
            (strategy, queries) -> {
              for (QueryRecorder.Recorded query : queries) {
                IndexCoverage.Need need = IndexCoverage.need(query.query());
                needs.put(query.shape(), need.toString());
                IndexCoverage.problem(need, declared)
                    .ifPresent(p -> problems.add("[" + strategy + "] " + query.shape() + ": " + p));
              }
            });
    System.out.println("Index needs of the recorded query shapes:");
    needs.forEach((shape, need) -> System.out.println("  " + shape + "\n      -> " + need));
    assertThat(needs).as("recorded queries").isNotEmpty();
    assertThat(problems).as("queries whose index firestore.indexes.json lacks").isEmpty();
  }

  @Test
  void everyKnownQueryShapeWasRecorded() {
    recorded()
        .forEach(
            (strategy, queries) -> {
              Map<String, Long> counts = new TreeMap<>();
              queries.forEach(q -> counts.merge(q.shape(), 1L, Long::sum));
              System.out.println("Query shapes recorded with strategy " + strategy + ":");
              counts.forEach((shape, n) -> System.out.printf("  %5d x %s%n", n, shape));
              assertThat(counts.keySet())
                  .as(
                      "query shapes of strategy %s (none at all: is FIRESTORE_EMULATOR_HOST set in"
                          + " the environment? Then the client builds its own channel without"
                          + " interceptors)",
                      strategy)
                  .containsAll(EXPECTED_SHAPES.get(strategy));
            });
  }

  @Test
  void noQueryOutsideWhatTheCheckModels() {
    recorded(); // drives the service
    unsupported.forEach(
        (strategy, rpcs) ->
            assertThat(rpcs).as("query RPCs of %s that this check does not model", strategy).isEmpty());
  }

  // ---------------------------------------------------------------- the rules themselves

  @Test
  void rejectsAQueryWhoseCompositeIndexIsNotDeclared() {
    // coupons where isAssigned == true order by assignedAt desc: needs (isAssigned, assignedAt DESC)
    StructuredQuery query =
        query("coupons", List.of(eq("isAssigned")), List.of(order("assignedAt", Direction.DESCENDING)));
    IndexCoverage.Need need = IndexCoverage.need(query);

    assertThat(need.composite()).isTrue();
    Optional<String> problem = IndexCoverage.problem(need, declared());
    assertThat(problem).isPresent();
    assertThat(problem.get()).contains("assignedAt DESCENDING");
  }

  @Test
  void rejectsADeclaredIndexOfTheWrongDirectionCollectionOrScope() {
    IndexCoverage.Declared declared = declared();
    // The declared (isAssigned, randomFloat ASCENDING) serves the ascending probe...
    StructuredQuery ascending =
        query("coupons", List.of(eq("isAssigned")), List.of(order("randomFloat", Direction.ASCENDING)));
    assertThat(IndexCoverage.problem(IndexCoverage.need(ascending), declared)).isEmpty();
    // ...but not a descending one,
    StructuredQuery descending =
        query("coupons", List.of(eq("isAssigned")), List.of(order("randomFloat", Direction.DESCENDING)));
    assertThat(IndexCoverage.problem(IndexCoverage.need(descending), declared)).isPresent();
    // nor the same query on another collection,
    StructuredQuery claims =
        query("claims", List.of(eq("isAssigned")), List.of(order("randomFloat", Direction.ASCENDING)));
    assertThat(IndexCoverage.problem(IndexCoverage.need(claims), declared)).isPresent();
    // nor a collection-group query,
    StructuredQuery group =
        ascending.toBuilder().setFrom(0, ascending.getFrom(0).toBuilder().setAllDescendants(true)).build();
    assertThat(IndexCoverage.problem(IndexCoverage.need(group), declared)).isPresent();
    // nor one with a second equality field.
    StructuredQuery twoEqualities =
        query(
            "coupons",
            List.of(eq("isAssigned"), eq("assignedTo")),
            List.of(order("randomFloat", Direction.ASCENDING)));
    assertThat(IndexCoverage.problem(IndexCoverage.need(twoEqualities), declared)).isPresent();
  }

  @Test
  void rangeFiltersAndEqualityNeedTheCompositeIndexEvenWithoutOrderBy() {
    StructuredQuery range =
        query("coupons", List.of(eq("isAssigned"), filter("randomFloat", FieldFilter.Operator.LESS_THAN)), List.of());
    IndexCoverage.Need need = IndexCoverage.need(range);
    assertThat(need.composite()).isTrue();
    assertThat(need.ordered())
        .containsExactly(new IndexCoverage.IndexField("randomFloat", IndexCoverage.ASCENDING));
    assertThat(IndexCoverage.problem(need, declared())).isEmpty();
    assertThat(IndexCoverage.problem(need, IndexCoverage.parse("{\"indexes\":[]}"))).isPresent();
  }

  @Test
  void singleFieldIndexesServeEqualitiesAloneAndOneOrderedField() {
    IndexCoverage.Declared none = IndexCoverage.parse("{\"indexes\":[],\"fieldOverrides\":[]}");
    List<StructuredQuery> automatic =
        List.of(
            query("coupons", List.of(), List.of()),
            query("coupons", List.of(eq("isAssigned"), eq("assignedTo")), List.of()),
            query("coupons", List.of(eq("isAssigned")), List.of(order("__name__", Direction.ASCENDING))),
            query("coupons", List.of(), List.of(order("randomFloat", Direction.DESCENDING))),
            query("coupons", List.of(filter("randomFloat", FieldFilter.Operator.GREATER_THAN)), List.of()),
            query("coupons", List.of(eq("isAssigned")), List.of(order("isAssigned", Direction.ASCENDING))));
    for (StructuredQuery query : automatic) {
      IndexCoverage.Need need = IndexCoverage.need(query);
      assertThat(need.composite()).as(IndexCoverage.shape(query)).isFalse();
      assertThat(IndexCoverage.problem(need, none)).as(IndexCoverage.shape(query)).isEmpty();
    }
  }

  @Test
  void theCodeLookupOverEveryCampaignNeedsItsCollectionGroupIndex() {
    StructuredQuery byCode = query("coupons", List.of(eq("code")), List.of());
    StructuredQuery group =
        byCode.toBuilder().setFrom(0, byCode.getFrom(0).toBuilder().setAllDescendants(true)).build();
    IndexCoverage.Need need = IndexCoverage.need(group);

    assertThat(need.composite()).isFalse();
    assertThat(IndexCoverage.problem(need, declared())).isEmpty();
    assertThat(IndexCoverage.problem(need, IndexCoverage.parse("{\"indexes\":[]}"))).isPresent();
    assertThat(IndexCoverage.problem(IndexCoverage.need(byCode), declared())).isEmpty();
  }

  @Test
  void aFieldOverrideThatDropsASingleFieldIndexIsNoticed() {
    IndexCoverage.Declared exempt =
        IndexCoverage.parse(
            "{\"indexes\":[],\"fieldOverrides\":[{\"collectionGroup\":\"coupons\","
                + "\"fieldPath\":\"isAssigned\",\"indexes\":[]}]}");
    IndexCoverage.Need need = IndexCoverage.need(query("coupons", List.of(eq("isAssigned")), List.of()));
    assertThat(IndexCoverage.problem(need, exempt)).isPresent();
  }

  // ---------------------------------------------------------------- driving the service

  private static synchronized Map<String, List<QueryRecorder.Recorded>> recorded() {
    if (driveFailure != null) {
      throw new AssertionError("driving the service failed (see the first failing test)", driveFailure);
    }
    if (recorded == null) {
      try {
        record();
      } catch (RuntimeException | Error e) {
        driveFailure = e;
        throw e;
      }
    }
    return recorded;
  }

  private static void record() {
    {
      TestEmulator.reset();
      Map<String, List<QueryRecorder.Recorded>> all = new LinkedHashMap<>();
      Map<String, List<String>> odd = new LinkedHashMap<>();
      for (String strategy :
          concat(FirestoreClaimStoreFactory.STRATEGIES, OldestFirstClaimStrategy.NAME)) {
        try (ServiceInstance instance =
            ServiceInstance.start(
                Map.of(
                    QueryRecorder.PROPERTY,
                    "true",
                    "flashclaim.firestore.claim.strategy",
                    strategy,
                    // probes sized to demand, held at 200 here so that their shape is one
                    "flashclaim.firestore.claim.candidates",
                    200,
                    "flashclaim.firestore.claim.refill-below",
                    100,
                    "flashclaim.audit.page-size",
                    AUDIT_PAGE))) {
          driveEveryQueryingRoute(instance.url(), "index-" + strategy);
          QueryRecorder recorder = instance.context().getBean(QueryRecorder.class);
          all.put(strategy, recorder.recorded());
          odd.put(strategy, recorder.unsupported());
        }
      }
      unsupported = odd;
      recorded = all;
    }
  }

  private static void driveEveryQueryingRoute(URI url, String campaign) {
    String admin = Tokens.admin();
    String base = "/v1/admin/campaigns/" + campaign;
    expect(
        Api.post(url, "/v1/admin/campaigns", admin,
            "{\"id\":\"" + campaign + "\",\"name\":\"index coverage\",\"perUserLimit\":1}"),
        201);
    expect(Api.post(url, base + "/coupons", admin, "{\"codes\":[\"GIVEN-1\",\"GIVEN-2\",\"GIVEN-3\"]}"), 200);
    expect(Api.post(url, base + "/coupons", admin, "{\"generate\":{\"count\":4,\"prefix\":\"GEN\"}}"), 200);
    assertThat(stock(expect(Api.get(url, base, admin), 200))).containsExactly(7L, 0L, 7L);

    // Claims until sold out, and past it: the sold-out path runs its own queries.
    int coupons = 7;
    int users = coupons + 3;
    int claimed = 0;
    int soldOut = 0;
    for (int i = 0; i < users; i++) {
      Claimer.Result result = Claimer.claimUntilFinal(url, campaign, "index-user-" + i);
      if (result.status() == 201) {
        claimed++;
      } else if (result.status() == 410) {
        soldOut++;
      } else {
        throw new AssertionError("claim: " + result.response());
      }
    }
    assertThat(claimed).as("coupons claimed").isEqualTo(coupons);
    assertThat(soldOut).as("sold-out answers").isEqualTo(users - coupons);
    expect(Api.post(url, "/v1/campaigns/" + campaign + "/claims", Tokens.user("index-user-0"), null), 200);
    String me = "/v1/campaigns/" + campaign + "/claims/me";
    assertThat((List<?>) expect(Api.get(url, me, Tokens.user("index-user-0")), 200).json().get("coupons"))
        .hasSize(1);
    assertThat(expect(Api.get(url, me, Tokens.user("index-user-" + (users - 1))), 200).json())
        .containsEntry("campaignId", campaign)
        .containsEntry("coupons", List.of());
    assertThat(stock(expect(Api.get(url, base, admin), 200))).containsExactly(7L, 7L, 0L);
    // The audit reads the 7 coupons and 7 claim records in pages of AUDIT_PAGE.
    Map<String, Object> audit = expect(Api.get(url, base + "/audit", admin), 200).json();
    assertThat(audit).containsEntry("ok", true).containsEntry("coupons", 7).containsEntry("claims", 7);

    // A redemption webhook without a campaign id looks the code up in every campaign.
    String code = Claimer.claimUntilFinal(url, campaign, "index-user-0").code();
    Api.Response byCode = Webhooks.deliver(url, Webhooks.body(null, code, "index-order", "redeemed"));
    if (byCode.status() == 409) {
      // The given codes (GIVEN-n) are in the campaign of every strategy driven before this one.
      assertThat(byCode.json().get("type")).isEqualTo("urn:flashclaim:problem:ambiguous-code");
      byCode = Webhooks.deliver(url, Webhooks.body(campaign, code, "index-order", "redeemed"));
    }
    assertThat(expect(byCode, 200).json())
        .containsEntry("result", "applied")
        .containsEntry("campaignId", campaign);

    // The export reads the 7 claimed coupons in pages of AUDIT_PAGE; a user's claims are one
    // range query (a code is read by id, no query).
    String export = expect(Api.get(url, base + "/claims", admin), 200).body();
    assertThat(export.split("\r\n")).hasSize(1 + coupons);
    assertThat(
            (List<?>)
                expect(Api.get(url, base + "/users/index-user-0/claims", admin), 200)
                    .json()
                    .get("claims"))
        .hasSize(1);

    // The list of campaigns (two of them at least), a page of one and the next page.
    expect(
        Api.post(url, "/v1/admin/campaigns", admin,
            "{\"id\":\"" + campaign + "-b\",\"name\":\"index coverage b\"}"),
        201);
    Map<String, Object> first = expect(Api.get(url, "/v1/admin/campaigns?limit=1", admin), 200).json();
    expect(Api.get(url, "/v1/admin/campaigns?limit=1&cursor=" + first.get("next"), admin), 200);
    // Two changes, and their records a page of one at a time.
    for (String paused : new String[] {"true", "false"}) {
      expect(
          Api.send(
              Api.request(url, base, admin)
                  .method("PATCH", java.net.http.HttpRequest.BodyPublishers.ofString("{\"paused\":" + paused + "}"))
                  .header("Content-Type", "application/merge-patch+json")
                  .build()),
          200);
    }
    Map<String, Object> changes = expect(Api.get(url, base + "/changes?limit=1", admin), 200).json();
    expect(Api.get(url, base + "/changes?limit=1&cursor=" + changes.get("next"), admin), 200);
  }

  /** total, assigned, remaining of a campaign view. */
  @SuppressWarnings("unchecked")
  private static List<Long> stock(Api.Response campaign) {
    Map<String, Object> stock = (Map<String, Object>) campaign.json().get("stock");
    return List.of("total", "assigned", "remaining").stream()
        .map(k -> ((Number) stock.get(k)).longValue())
        .toList();
  }

  private static Api.Response expect(Api.Response response, int status) {
    if (response.status() != status) {
      throw new AssertionError("expected " + status + ", got " + response);
    }
    return response;
  }

  // ---------------------------------------------------------------- helpers

  private static IndexCoverage.Declared declared() {
    Path file = Path.of(System.getProperty("basedir", ".")).resolve("firestore.indexes.json");
    try {
      return IndexCoverage.parse(Files.readString(file));
    } catch (IOException e) {
      throw new AssertionError("cannot read " + file.toAbsolutePath(), e);
    }
  }

  private static StructuredQuery query(String collection, List<Filter> filters, List<Order> orders) {
    StructuredQuery.Builder query =
        StructuredQuery.newBuilder().addFrom(CollectionSelector.newBuilder().setCollectionId(collection));
    if (filters.size() == 1) {
      query.setWhere(filters.get(0));
    } else if (!filters.isEmpty()) {
      query.setWhere(
          Filter.newBuilder()
              .setCompositeFilter(
                  CompositeFilter.newBuilder().setOp(CompositeFilter.Operator.AND).addAllFilters(filters)));
    }
    return query.addAllOrderBy(orders).build();
  }

  private static Filter eq(String field) {
    return filter(field, FieldFilter.Operator.EQUAL);
  }

  private static Filter filter(String field, FieldFilter.Operator op) {
    return Filter.newBuilder()
        .setFieldFilter(
            FieldFilter.newBuilder()
                .setField(FieldReference.newBuilder().setFieldPath(field))
                .setOp(op)
                .setValue(Value.newBuilder().setBooleanValue(true)))
        .build();
  }

  private static Order order(String field, Direction direction) {
    return Order.newBuilder()
        .setField(FieldReference.newBuilder().setFieldPath(field))
        .setDirection(direction)
        .build();
  }

  private static List<String> concat(List<String> first, String... more) {
    List<String> all = new ArrayList<>(first);
    all.addAll(List.of(more));
    return List.copyOf(all);
  }
}
