package flashclaim.store.firestore;

import com.google.firestore.v1.StructuredQuery;
import com.google.firestore.v1.StructuredQuery.FieldFilter;
import com.google.firestore.v1.StructuredQuery.Filter;
import io.micronaut.core.type.Argument;
import io.micronaut.serde.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * What index a Firestore query needs, and whether {@code firestore.indexes.json} (Firebase CLI
 * format) provides it. The emulator serves any query without an index; real Firestore rejects a
 * query whose index is missing with FAILED_PRECONDITION, so this check stands in for it.
 *
 * <p>The rules, as Firestore documents them:
 *
 * <ul>
 *   <li>Equality filters ({@code ==}, {@code in}, {@code array-contains(-any)}, {@code is null},
 *       {@code is NaN}) alone, with no ordering or ordering only by {@code __name__}, are served by
 *       the automatic single-field indexes (merged when there are several).
 *   <li>One field in inequality filters and/or orderBy, with no equality filter on another field,
 *       is served by the automatic single-field index of that field in that direction.
 *   <li>Anything else needs a composite index: the equality fields (any order), then the
 *       orderBy fields in orderBy order with matching direction, then inequality fields not ordered
 *       explicitly (ascending, by name, as Firestore orders them implicitly); {@code __name__} is
 *       implied last. An orderBy on a field that has an equality filter is a no-op.
 * </ul>
 *
 * Automatic single-field indexes exist for collection scope unless a field override in the file
 * replaces them; collection-group scope has them only where a field override declares them.
 */
final class IndexCoverage {
  static final String COLLECTION = "COLLECTION";
  static final String COLLECTION_GROUP = "COLLECTION_GROUP";
  static final String ASCENDING = "ASCENDING";
  static final String DESCENDING = "DESCENDING";
  /** The index mode of an {@code array-contains} filter. */
  static final String CONTAINS = "CONTAINS";
  /** The mode of an equality field in a composite index: ASCENDING or DESCENDING both serve it. */
  static final String EQUALITY = "EQUALITY";

  private static final String NAME = "__name__";

  private IndexCoverage() {}

  /** One field of an index (or of an index need): a field path and its order or array config. */
  record IndexField(String fieldPath, String mode) {
    @Override
    public String toString() {
      return fieldPath + " " + mode;
    }
  }

  /** A composite index of the file. */
  record Index(String collectionGroup, String queryScope, List<IndexField> fields) {}

  /** A field override of the file: the single-field indexes that replace the automatic ones. */
  record FieldOverride(String collectionGroup, String fieldPath, List<IndexField> indexes) {}

  /** What the file declares. */
  record Declared(List<Index> indexes, List<FieldOverride> fieldOverrides) {}

  /**
   * The index a query needs.
   *
   * @param composite false: automatic single-field indexes of {@code singleFields} serve it
   * @param equality the equality fields (mode EQUALITY or CONTAINS); part of a composite index
   * @param ordered the fields after the equality ones, in order; part of a composite index
   * @param singleFields the single-field indexes an automatic need relies on
   */
  record Need(
      String collectionGroup,
      String queryScope,
      boolean composite,
      List<IndexField> equality,
      List<IndexField> ordered,
      List<IndexField> singleFields) {
    @Override
    public String toString() {
      if (!composite) {
        return "automatic single-field index"
            + (singleFields.isEmpty() ? " (none: full scan by __name__)" : "es " + singleFields)
            + " on " + collectionGroup + " (" + queryScope + ")";
      }
      return "composite index on " + collectionGroup + " (" + queryScope + "): equality "
          + equality + " then " + ordered;
    }
  }

  /** Parses a {@code firestore.indexes.json} in Firebase CLI format. */
  @SuppressWarnings("unchecked")
  static Declared parse(String json) {
    Map<String, Object> root;
    try {
      root = ObjectMapper.getDefault().readValue(json, Argument.mapOf(String.class, Object.class));
    } catch (IOException e) {
      throw new UncheckedIOException("firestore.indexes.json is not valid JSON", e);
    }
    List<Index> indexes = new ArrayList<>();
    for (Object o : (List<Object>) root.getOrDefault("indexes", List.of())) {
      Map<String, Object> index = (Map<String, Object>) o;
      List<IndexField> fields = new ArrayList<>();
      for (Object f : (List<Object>) index.get("fields")) {
        Map<String, Object> field = (Map<String, Object>) f;
        fields.add(new IndexField((String) field.get("fieldPath"), mode(field)));
      }
      indexes.add(
          new Index(
              (String) index.get("collectionGroup"),
              (String) index.getOrDefault("queryScope", COLLECTION),
              fields));
    }
    List<FieldOverride> overrides = new ArrayList<>();
    for (Object o : (List<Object>) root.getOrDefault("fieldOverrides", List.of())) {
      Map<String, Object> override = (Map<String, Object>) o;
      List<IndexField> single = new ArrayList<>();
      for (Object i : (List<Object>) override.getOrDefault("indexes", List.of())) {
        Map<String, Object> index = (Map<String, Object>) i;
        // A single-field index of an override: its scope takes the place of the field path.
        single.add(
            new IndexField((String) index.getOrDefault("queryScope", COLLECTION), mode(index)));
      }
      overrides.add(
          new FieldOverride(
              (String) override.get("collectionGroup"), (String) override.get("fieldPath"), single));
    }
    return new Declared(indexes, overrides);
  }

  private static String mode(Map<String, Object> field) {
    if (field.get("order") != null) {
      return (String) field.get("order");
    }
    if ("CONTAINS".equals(field.get("arrayConfig"))) {
      return CONTAINS;
    }
    throw new IllegalArgumentException("index field without order or arrayConfig: " + field);
  }

  /** The index a query needs, by the rules above. */
  static Need need(StructuredQuery query) {
    if (query.getFromCount() != 1) {
      throw new IllegalArgumentException("a query reads exactly one collection: " + query);
    }
    if (query.hasFindNearest()) {
      throw new IllegalArgumentException("vector queries need vector indexes; extend this check");
    }
    String collectionGroup = query.getFrom(0).getCollectionId();
    String scope = query.getFrom(0).getAllDescendants() ? COLLECTION_GROUP : COLLECTION;

    Map<String, String> equality = new LinkedHashMap<>();
    Set<String> inequality = new TreeSet<>();
    if (query.hasWhere()) {
      for (Filter filter : conjuncts(query.getWhere())) {
        classify(filter, equality, inequality);
      }
    }
    equality.remove(NAME); // a key lookup: every index ends in __name__

    List<IndexField> ordered = new ArrayList<>();
    Set<String> orderedFields = new TreeSet<>();
    for (StructuredQuery.Order order : query.getOrderByList()) {
      String field = order.getField().getFieldPath();
      if (equality.containsKey(field) || !orderedFields.add(field)) {
        continue;
      }
      ordered.add(
          new IndexField(
              field,
              order.getDirection() == StructuredQuery.Direction.DESCENDING ? DESCENDING : ASCENDING));
    }
    for (String field : inequality) {
      if (!equality.containsKey(field) && orderedFields.add(field)) {
        ordered.add(new IndexField(field, ASCENDING));
      }
    }
    while (!ordered.isEmpty() && ordered.get(ordered.size() - 1).fieldPath().equals(NAME)) {
      ordered.remove(ordered.size() - 1);
    }

    List<IndexField> eq =
        equality.entrySet().stream().map(e -> new IndexField(e.getKey(), e.getValue())).toList();
    if (ordered.isEmpty()) {
      List<IndexField> single =
          eq.stream()
              .map(f -> new IndexField(f.fieldPath(), f.mode().equals(CONTAINS) ? CONTAINS : ASCENDING))
              .toList();
      return new Need(collectionGroup, scope, false, eq, ordered, single);
    }
    if (eq.isEmpty() && ordered.size() == 1) {
      return new Need(collectionGroup, scope, false, eq, ordered, List.copyOf(ordered));
    }
    return new Need(collectionGroup, scope, true, eq, List.copyOf(ordered), List.of());
  }

  private static List<Filter> conjuncts(Filter filter) {
    if (filter.hasCompositeFilter()) {
      if (filter.getCompositeFilter().getOp() != StructuredQuery.CompositeFilter.Operator.AND) {
        throw new IllegalArgumentException(
            "OR queries need an index per disjunct; extend this check: " + filter);
      }
      List<Filter> all = new ArrayList<>();
      for (Filter f : filter.getCompositeFilter().getFiltersList()) {
        all.addAll(conjuncts(f));
      }
      return all;
    }
    return List.of(filter);
  }

  private static void classify(Filter filter, Map<String, String> equality, Set<String> inequality) {
    if (filter.hasFieldFilter()) {
      FieldFilter f = filter.getFieldFilter();
      String field = f.getField().getFieldPath();
      switch (f.getOp()) {
        case EQUAL, IN -> equality.putIfAbsent(field, EQUALITY);
        case ARRAY_CONTAINS, ARRAY_CONTAINS_ANY -> equality.put(field, CONTAINS);
        case LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL, NOT_EQUAL, NOT_IN ->
            inequality.add(field);
        default -> throw new IllegalArgumentException("unknown filter operator: " + f);
      }
    } else if (filter.hasUnaryFilter()) {
      StructuredQuery.UnaryFilter f = filter.getUnaryFilter();
      String field = f.getField().getFieldPath();
      switch (f.getOp()) {
        case IS_NULL, IS_NAN -> equality.putIfAbsent(field, EQUALITY);
        case IS_NOT_NULL, IS_NOT_NAN -> inequality.add(field);
        default -> throw new IllegalArgumentException("unknown filter operator: " + f);
      }
    } else {
      throw new IllegalArgumentException("unknown filter: " + filter);
    }
  }

  /** Why the declared indexes do not serve the need; empty when they do. */
  static Optional<String> problem(Need need, Declared declared) {
    if (!need.composite()) {
      for (IndexField field : need.singleFields()) {
        Optional<FieldOverride> override =
            declared.fieldOverrides().stream()
                .filter(o -> o.collectionGroup().equals(need.collectionGroup()))
                .filter(o -> o.fieldPath().equals(field.fieldPath()))
                .findFirst();
        boolean available =
            override
                .map(o -> o.indexes().contains(new IndexField(need.queryScope(), field.mode())))
                .orElse(need.queryScope().equals(COLLECTION));
        if (!available) {
          return Optional.of(
              "no single-field index " + field + " (" + need.queryScope() + ") on "
                  + need.collectionGroup() + (override.isPresent() ? ": a field override removes it" : ""));
        }
      }
      return Optional.empty();
    }
    boolean covered =
        declared.indexes().stream()
            .filter(i -> i.collectionGroup().equals(need.collectionGroup()))
            .filter(i -> i.queryScope().equals(need.queryScope()))
            .anyMatch(i -> serves(i, need));
    if (covered) {
      return Optional.empty();
    }
    return Optional.of(
        "firestore.indexes.json declares no " + need + "; add "
            + suggestion(need));
  }

  private static boolean serves(Index index, Need need) {
    List<IndexField> fields = new ArrayList<>(index.fields());
    if (!fields.isEmpty() && fields.get(fields.size() - 1).fieldPath().equals(NAME)) {
      fields.remove(fields.size() - 1);
    }
    int eq = need.equality().size();
    if (fields.size() != eq + need.ordered().size()) {
      return false;
    }
    Map<String, String> prefix = new LinkedHashMap<>();
    for (IndexField field : fields.subList(0, eq)) {
      prefix.put(field.fieldPath(), field.mode());
    }
    for (IndexField wanted : need.equality()) {
      String mode = prefix.get(wanted.fieldPath());
      boolean fits =
          wanted.mode().equals(CONTAINS)
              ? CONTAINS.equals(mode)
              : ASCENDING.equals(mode) || DESCENDING.equals(mode);
      if (!fits) {
        return false;
      }
    }
    return fields.subList(eq, fields.size()).equals(need.ordered());
  }

  private static String suggestion(Need need) {
    List<String> fields = new ArrayList<>();
    for (IndexField f : need.equality()) {
      fields.add(
          f.mode().equals(CONTAINS)
              ? "{ \"fieldPath\": \"" + f.fieldPath() + "\", \"arrayConfig\": \"CONTAINS\" }"
              : "{ \"fieldPath\": \"" + f.fieldPath() + "\", \"order\": \"ASCENDING\" }");
    }
    for (IndexField f : need.ordered()) {
      fields.add("{ \"fieldPath\": \"" + f.fieldPath() + "\", \"order\": \"" + f.mode() + "\" }");
    }
    return "{ \"collectionGroup\": \"" + need.collectionGroup() + "\", \"queryScope\": \""
        + need.queryScope() + "\", \"fields\": [ " + String.join(", ", fields) + " ] }";
  }

  /**
   * A query's shape: its collection, filter operators, ordering, cursors and limit, without values,
   * e.g. {@code coupons WHERE isAssigned EQUAL ORDER BY randomFloat ASCENDING START_AT LIMIT 5}.
   */
  static String shape(StructuredQuery query) {
    StringBuilder s = new StringBuilder();
    s.append(
        query.getFromList().stream()
            .map(f -> f.getCollectionId() + (f.getAllDescendants() ? " (group)" : ""))
            .collect(Collectors.joining(",")));
    if (query.hasWhere()) {
      s.append(" WHERE ")
          .append(
              conjuncts(query.getWhere()).stream()
                  .map(IndexCoverage::filterShape)
                  .collect(Collectors.joining(" AND ")));
    }
    if (query.getOrderByCount() > 0) {
      s.append(" ORDER BY ")
          .append(
              query.getOrderByList().stream()
                  .map(o -> o.getField().getFieldPath() + " " + o.getDirection())
                  .collect(Collectors.joining(", ")));
    }
    if (query.hasStartAt()) {
      s.append(query.getStartAt().getBefore() ? " START_AT" : " START_AFTER");
    }
    if (query.hasEndAt()) {
      s.append(query.getEndAt().getBefore() ? " END_BEFORE" : " END_AT");
    }
    if (query.getOffset() > 0) {
      s.append(" OFFSET ").append(query.getOffset());
    }
    if (query.hasLimit()) {
      s.append(" LIMIT ").append(query.getLimit().getValue());
    }
    return s.toString();
  }

  private static String filterShape(Filter filter) {
    if (filter.hasFieldFilter()) {
      return filter.getFieldFilter().getField().getFieldPath() + " " + filter.getFieldFilter().getOp();
    }
    if (filter.hasUnaryFilter()) {
      return filter.getUnaryFilter().getField().getFieldPath() + " " + filter.getUnaryFilter().getOp();
    }
    return filter.toString();
  }
}
