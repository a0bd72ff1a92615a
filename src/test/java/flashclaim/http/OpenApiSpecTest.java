package flashclaim.http;

import flashclaim.guard.GuardConfig;
import flashclaim.http.problem.Problem;
import flashclaim.http.problem.ProblemType;
import flashclaim.testing.Api;
import flashclaim.testing.ApiContract;
import flashclaim.testing.ServiceInstance;
import io.micronaut.http.HttpMethod;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.rules.SecurityRule;
import io.micronaut.web.router.Router;
import io.micronaut.web.router.UriRouteInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.yaml.snakeyaml.Yaml;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The OpenAPI spec the build generates, as the service serves it, against the code: every API
 * route the router knows is in it and nothing else; every problem type of {@link ProblemType} is
 * documented, those a controller names on that controller's routes; the statuses that filters add
 * to every route (load shedding, shutdown, store faults, authentication, roles, idempotency keys,
 * the modification guard) are on every route they apply to; every reference resolves; and each
 * documented problem example is one the code sends: its type is in {@link ProblemType}, with that
 * type's title and status, the status of the response it is listed under, and members of the
 * response's schema only. A response declares Retry-After exactly when one of its problems is
 * retryable, and requires it when all are.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OpenApiSpecTest {
  private static final Path SOURCES = Path.of("src/main/java/flashclaim/http");

  private ServiceInstance service;
  private Map<String, Object> spec;

  @BeforeAll
  void start() {
    service = ServiceInstance.start();
    Api.Response response = Api.get(service.url(), "/swagger/flashclaim-v1.yml", null);
    assertThat(response.status()).isEqualTo(200);
    spec = new Yaml().load(response.body());
    assertThat(response.body())
        .as("the document ApiContract checks against")
        .isEqualTo(ApiContract.document());
  }

  @AfterAll
  void stop() {
    service.close();
  }

  @Test
  void swaggerUiIsServed() {
    Api.Response ui = Api.get(service.url(), "/swagger-ui/index.html", null);
    assertThat(ui.status()).isEqualTo(200);
    assertThat(ui.body()).contains("swagger-ui").contains("/swagger/flashclaim-v1.yml");
    assertThat(Api.get(service.url(), "/swagger-ui/res/swagger-ui-bundle.js", null).status())
        .isEqualTo(200);
  }

  @Test
  void everyApiRouteIsInTheSpecAndNothingElse() {
    Set<String> routes = new TreeSet<>();
    apiRoutes().forEach(r -> routes.add(key(r)));
    Set<String> documented = new TreeSet<>();
    paths().forEach((path, ops) -> ops.keySet().forEach(m -> documented.add(m.toUpperCase() + " " + path)));
    assertThat(routes).hasSizeGreaterThanOrEqualTo(7);
    assertThat(documented).isEqualTo(routes);
  }

  @Test
  void everyProblemExampleIsOneTheCodeSends() {
    Set<String> checked = new HashSet<>();
    forEachOperation(
        (route, responses) ->
            responses.forEach(
                (status, problems) ->
                    problems.forEach(
                        (name, example) -> {
                          String at = route + " " + status + " " + name;
                          ProblemType type =
                              ProblemType.ofUri(String.valueOf(example.get("type")))
                                  .orElseThrow(() -> new AssertionError(at + ": a type of the list"));
                          assertThat(type.slug()).as(at).isEqualTo(name);
                          assertThat(example.get("title")).as(at).isEqualTo(type.title());
                          assertThat(example.get("status")).as(at).isEqualTo(type.status().getCode());
                          assertThat(String.valueOf(type.status().getCode())).as(at).isEqualTo(status);
                          checked.add(name);
                        })));
    assertThat(checked).as("types with an example").hasSizeGreaterThan(ProblemType.values().length / 2);
  }

  @Test
  void everyProblemExampleHasOnlyMembersOfItsSchema() {
    paths().forEach(
        (path, ops) ->
            ops.forEach(
                (method, op) ->
                    responsesOf(op).forEach(
                        (status, response) -> {
                          Map<String, Object> problem = problemContent(response);
                          if (problem == null) {
                            return;
                          }
                          Set<String> members = properties(resolve(child(problem, "schema"))).keySet();
                          examples(problem)
                              .forEach(
                                  (name, example) ->
                                      assertThat(members)
                                          .as("%s %s %s %s", method, path, status, name)
                                          .containsAll(example.keySet()));
                        })));
  }

  @Test
  void everyReferenceResolvesAndEverySharedResponseIsUsed() {
    Set<String> refs = new TreeSet<>();
    collectRefs(spec, refs);
    refs.forEach(ref -> assertThat(resolveRef(ref)).as(ref).isNotNull());
    Map<String, Object> components = child(spec, "components");
    for (String name : child(components, "responses").keySet()) {
      assertThat(refs).as("shared response %s is used", name).contains("#/components/responses/" + name);
    }
    for (String name : child(components, "examples").keySet()) {
      assertThat(refs).as("shared example %s is used", name).contains("#/components/examples/" + name);
    }
  }

  @Test
  void filtersAndHandlersStatusesAreOnEveryRouteTheyApplyTo() {
    GuardConfig guard = service.context().getBean(GuardConfig.class);
    for (UriRouteInfo<?, ?> route : apiRoutes()) {
      Map<String, Map<String, Map<String, Object>>> responses = problems(route);
      String at = key(route);
      assertThat(responses.get("503")).as(at).containsKeys("overloaded", "shutting-down", "store-unavailable");
      assertThat(responses.get("400")).as(at).containsKey("invalid-request");
      String[] secured = route.getTargetMethod().getAnnotationMetadata().stringValues(Secured.class);
      if (Set.of(secured).contains("admin")) {
        assertThat(responses.get("401")).as(at).containsKey("unauthorized");
        assertThat(responses.get("403")).as(at).containsKey("forbidden");
      } else if (Set.of(secured).contains(SecurityRule.IS_AUTHENTICATED)) {
        assertThat(responses.get("401")).as(at).containsKey("unauthorized");
      }
      if (route.getHttpMethod() == HttpMethod.POST) {
        assertThat(responses.get("400")).as(at).containsKey("idempotency-key-missing");
        assertThat(responses.get("409")).as(at).containsKey("idempotency-key-in-use");
        assertThat(responses.get("422")).as(at).containsKey("idempotency-key-reused");
        assertThat(responses.get("413")).as(at).containsKey("payload-too-large");
        String concrete = route.getUriMatchTemplate().expand(Map.of("id", "x"));
        if (guard.covers(concrete)) {
          assertThat(responses.get("409")).as(at).containsKey("concurrent-modification");
        }
      }
    }
  }

  @Test
  void retryAfterIsRequiredExactlyWhereEveryProblemIsRetryable() {
    Set<String> retryable =
        Set.of(
            "concurrent-modification",
            "idempotency-key-in-use",
            "retry-too-soon",
            "busy",
            "overloaded",
            "shutting-down",
            "store-unavailable");
    paths().forEach(
        (path, ops) ->
            ops.forEach(
                (method, op) ->
                    responsesOf(op).forEach(
                        (status, response) -> {
                          Map<String, Object> problem = problemContent(response);
                          if (problem == null) {
                            return;
                          }
                          Set<String> names = examples(problem).keySet();
                          Map<String, Object> headers = child(resolve(response), "headers");
                          Map<String, Object> header =
                              resolve(child(headers, Problem.RETRY_AFTER));
                          boolean declared = header != null;
                          boolean required =
                              declared && Boolean.TRUE.equals(header.get("required"));
                          String at = method + " " + path + " " + status + " " + names;
                          assertThat(required).as(at).isEqualTo(retryable.containsAll(names));
                          assertThat(declared)
                              .as(at)
                              .isEqualTo(names.stream().anyMatch(retryable::contains));
                        })));
  }

  @Test
  void everyProblemTypeIsDocumented() throws IOException {
    Set<String> documented = new HashSet<>();
    forEachOperation((route, responses) -> responses.values().forEach(p -> documented.addAll(p.keySet())));
    String info = String.valueOf(((Map<?, ?>) spec.get("info")).get("description"));
    Set<ProblemType> inCode = EnumSet.noneOf(ProblemType.class);
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        Set<ProblemType> named = problemTypes(Files.readString(file));
        inCode.addAll(named);
        // A controller's own problems are on its own routes.
        String controller = file.getFileName().toString().replace(".java", "");
        Set<String> onItsRoutes = new HashSet<>();
        apiRoutes().stream()
            .filter(r -> r.getTargetMethod().getDeclaringType().getSimpleName().equals(controller))
            .forEach(r -> problems(r).values().forEach(p -> onItsRoutes.addAll(p.keySet())));
        if (controller.endsWith("Controller")) {
          assertThat(onItsRoutes).as(controller).containsAll(named.stream().map(ProblemType::slug).toList());
        }
      }
    }
    assertThat(inCode).contains(ProblemType.SOLD_OUT, ProblemType.OVERLOADED, ProblemType.NOT_FOUND);
    for (ProblemType type : ProblemType.values()) {
      assertThat(documented.contains(type.slug()) || info.contains(" " + type.slug()))
          .as("problem type %s is documented", type.slug())
          .isTrue();
    }
    // And the spec names no problem type that the list does not have.
    documented.forEach(name -> assertThat(ProblemType.ofUri(ProblemType.PREFIX + name)).as(name).isPresent());
  }

  /** The problem types a source file names. */
  private static Set<ProblemType> problemTypes(String source) {
    Set<ProblemType> types = EnumSet.noneOf(ProblemType.class);
    Matcher named = Pattern.compile("ProblemType\\.([A-Z_]+)\\b").matcher(source);
    while (named.find()) {
      EnumSet.allOf(ProblemType.class).stream()
          .filter(type -> type.name().equals(named.group(1)))
          .forEach(types::add);
    }
    return types;
  }

  private List<UriRouteInfo<?, ?>> apiRoutes() {
    List<UriRouteInfo<?, ?>> routes = new ArrayList<>();
    service.context().getBean(Router.class).uriRoutes()
        .filter(r -> r.getUriMatchTemplate().toString().startsWith("/v1/"))
        .filter(r -> !r.getUriMatchTemplate().toString().startsWith("/v1/test/"))
        .filter(r -> r.getHttpMethod() != HttpMethod.HEAD) // Micronaut's automatic HEAD of a GET
        .forEach(routes::add);
    return routes;
  }

  private static String key(UriRouteInfo<?, ?> route) {
    return route.getHttpMethod().name() + " " + route.getUriMatchTemplate().toString();
  }

  @SuppressWarnings("unchecked")
  private Map<String, Map<String, Object>> paths() {
    return (Map<String, Map<String, Object>>) spec.get("paths");
  }

  /** Status -> problem name -> example value, of the route's operation in the spec. */
  @SuppressWarnings("unchecked")
  private Map<String, Map<String, Map<String, Object>>> problems(UriRouteInfo<?, ?> route) {
    Map<String, Object> op =
        (Map<String, Object>)
            paths().get(route.getUriMatchTemplate().toString()).get(route.getHttpMethod().name().toLowerCase());
    assertThat(op).as(key(route)).isNotNull();
    return problemsOf(responsesOf(op));
  }

  /** Status -> problem name -> example value, of an operation's responses, references resolved. */
  private Map<String, Map<String, Map<String, Object>>> problemsOf(Map<String, Object> responses) {
    Map<String, Map<String, Map<String, Object>>> result = new TreeMap<>();
    responses.forEach(
        (status, response) -> {
          Map<String, Object> problem = problemContent(resolve(response));
          result.put(status, problem == null ? Map.of() : examples(problem));
        });
    return result;
  }

  /** The problem+json content of a response, or null. */
  private Map<String, Object> problemContent(Object response) {
    Map<String, Object> content = child(resolve(response), "content");
    return content == null ? null : child(content, Problem.MEDIA_TYPE);
  }

  /** Example name -> example value of a problem+json content, references resolved. */
  private Map<String, Map<String, Object>> examples(Map<String, Object> problem) {
    Map<String, Map<String, Object>> byName = new TreeMap<>();
    Map<String, Object> examples = child(problem, "examples");
    if (examples != null) {
      examples.forEach((name, example) -> byName.put(name, child(resolve(example), "value")));
    }
    return byName;
  }

  /** The properties of a schema, with those of the schemas it is composed of. */
  private Map<String, Object> properties(Map<String, Object> schema) {
    Map<String, Object> properties = new TreeMap<>();
    Map<String, Object> own = child(schema, "properties");
    if (own != null) {
      properties.putAll(own);
    }
    for (String composition : List.of("allOf", "oneOf", "anyOf")) {
      if (schema.get(composition) instanceof List<?> parts) {
        parts.forEach(part -> properties.putAll(properties(resolve(part))));
      }
    }
    return properties;
  }

  /** The node itself, or the one its {@code $ref} names. */
  private Map<String, Object> resolve(Object node) {
    Map<String, Object> map = asMap(node);
    if (map == null || !map.containsKey("$ref")) {
      return map;
    }
    String ref = String.valueOf(map.get("$ref"));
    Map<String, Object> target = resolveRef(ref);
    assertThat(target).as("%s resolves", ref).isNotNull();
    return resolve(target);
  }

  private Map<String, Object> resolveRef(String ref) {
    Map<String, Object> node = spec;
    for (String part : ref.substring(ref.indexOf('#') + 2).split("/")) {
      node = node == null ? null : child(node, part);
    }
    return node;
  }

  private static void collectRefs(Object node, Set<String> refs) {
    if (node instanceof Map<?, ?> map) {
      map.forEach(
          (key, value) -> {
            if ("$ref".equals(key)) {
              refs.add(String.valueOf(value));
            } else {
              collectRefs(value, refs);
            }
          });
    } else if (node instanceof List<?> list) {
      list.forEach(item -> collectRefs(item, refs));
    }
  }

  private static Map<String, Object> child(Map<String, Object> node, String key) {
    return node == null ? null : asMap(node.get(key));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> asMap(Object node) {
    return node instanceof Map<?, ?> ? (Map<String, Object>) node : null;
  }

  private Map<String, Object> responsesOf(Object operation) {
    Map<String, Object> responses = new TreeMap<>();
    child(asMap(operation), "responses").forEach((status, response) -> responses.put(String.valueOf(status), response));
    return responses;
  }

  private void forEachOperation(
      BiConsumer<String, Map<String, Map<String, Map<String, Object>>>> check) {
    paths().forEach(
        (path, ops) ->
            ops.forEach((method, op) -> check.accept(method + " " + path, problemsOf(responsesOf(op)))));
  }
}
