package flashclaim.http;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.guard.GuardConfig;
import flashclaim.testing.Api;
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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.yaml.snakeyaml.Yaml;

/**
 * The OpenAPI spec the build generates, as the service serves it, against the code: every API
 * route the router knows is in it and nothing else; every problem type the code can answer with is
 * documented, on the routes of the controller that answers it; the statuses that filters add to
 * every route (load shedding, shutdown, store faults, authentication, roles, idempotency keys, the
 * modification guard) are on every route they apply to; and each documented problem example has
 * the status of the response it is listed under.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OpenApiSpecTest {
  private static final String TYPE_PREFIX = "urn:flashclaim:problem:";
  private static final Path SOURCES = Path.of("src/main/java/flashclaim/http");

  private ServiceInstance service;
  private Map<String, Object> spec;

  @BeforeAll
  void start() {
    service = ServiceInstance.start();
    Api.Response response = Api.get(service.url(), "/swagger/flashclaim-v1.yml", null);
    assertThat(response.status()).isEqualTo(200);
    spec = new Yaml().load(response.body());
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
  void everyProblemExampleHasItsResponsesStatus() {
    forEachOperation(
        (route, responses) ->
            responses.forEach(
                (status, problems) ->
                    problems.forEach(
                        (name, example) -> {
                          assertThat(example.get("type")).as(route).isEqualTo(TYPE_PREFIX + name);
                          assertThat(String.valueOf(example.get("status"))).as(route + " " + name).isEqualTo(status);
                        })));
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
  void everyProblemTheCodeAnswersIsDocumented() throws IOException {
    Set<String> documented = new HashSet<>();
    forEachOperation((route, responses) -> responses.values().forEach(p -> documented.addAll(p.keySet())));
    String info = String.valueOf(((Map<?, ?>) spec.get("info")).get("description"));
    Set<String> inCode = new TreeSet<>();
    try (Stream<Path> files = Files.list(SOURCES)) {
      for (Path file : files.toList()) {
        Set<String> names = problemNames(Files.readString(file));
        inCode.addAll(names);
        // A controller's own problems are on its own routes.
        String controller = file.getFileName().toString().replace(".java", "");
        Set<String> onItsRoutes = new HashSet<>();
        apiRoutes().stream()
            .filter(r -> r.getTargetMethod().getDeclaringType().getSimpleName().equals(controller))
            .forEach(r -> problems(r).values().forEach(p -> onItsRoutes.addAll(p.keySet())));
        if (controller.endsWith("Controller")) {
          assertThat(onItsRoutes).as(controller).containsAll(names);
        }
      }
    }
    assertThat(inCode).contains("sold-out", "overloaded", "shutting-down", "not-found");
    for (String name : inCode) {
      assertThat(documented.contains(name) || info.contains(" " + name))
          .as("problem type %s is documented", name)
          .isTrue();
    }
    // And the spec names no problem type that the code does not have.
    assertThat(inCode).containsAll(documented);
  }

  /** Problem names in a source file: those passed to Problem's factories and the framework's. */
  private static Set<String> problemNames(String source) {
    Set<String> names = new TreeSet<>();
    Matcher factory =
        Pattern.compile("Problem\\.(?:of|unavailable|retryLater)\\(\\s*(?:HttpStatus\\.\\w+,\\s*)?\"([a-z-]+)\"")
            .matcher(source);
    while (factory.find()) {
      names.add(factory.group(1));
    }
    Matcher framework = Pattern.compile("case \\w+ -> \"([a-z-]+)\"|\\? \"([a-z-]+)\"").matcher(source);
    while (framework.find()) {
      names.add(framework.group(1) != null ? framework.group(1) : framework.group(2));
    }
    return names;
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
    return problemsOf((Map<String, Object>) op.get("responses"));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Map<String, Map<String, Object>>> problemsOf(Map<String, Object> responses) {
    Map<String, Map<String, Map<String, Object>>> result = new java.util.TreeMap<>();
    responses.forEach(
        (status, response) -> {
          Map<String, Object> content = (Map<String, Object>) ((Map<String, Object>) response).get("content");
          Map<String, Object> problem = content == null ? null : (Map<String, Object>) content.get(Problem.MEDIA_TYPE);
          Map<String, Map<String, Object>> byName = new java.util.TreeMap<>();
          if (problem != null && problem.get("examples") != null) {
            ((Map<String, Map<String, Object>>) problem.get("examples"))
                .forEach((name, example) -> byName.put(name, (Map<String, Object>) example.get("value")));
          }
          result.put(String.valueOf(status), byName);
        });
    return result;
  }

  private void forEachOperation(
      java.util.function.BiConsumer<String, Map<String, Map<String, Map<String, Object>>>> check) {
    paths().forEach(
        (path, ops) ->
            ops.forEach(
                (method, op) ->
                    check.accept(
                        method + " " + path,
                        problemsOf(
                            (Map<String, Object>) ((Map<String, Object>) op).get("responses")))));
  }
}
