package flashclaim.http;

import flashclaim.http.problem.Problem;
import flashclaim.http.problem.ProblemType;
import flashclaim.testing.Api;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.Tokens;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * G8 on the management surface: of Micronaut's endpoints only health and Prometheus are reachable;
 * every other one answers 404 (or 401) problem+json to anonymous callers, users and admins, with
 * any method. Health shows its status to everybody and its details to admins only.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ManagementSurfaceTest {
  /** Micronaut's endpoints (management, micrometer, caches) that must stay off. */
  static final List<String> UNDOCUMENTED =
      List.of(
          "/beans", "/routes", "/threaddump", "/info", "/refresh", "/env", "/env/micronaut",
          "/loggers", "/loggers/ROOT", "/caches", "/stop", "/metrics", "/metrics/jvm.memory.used");

  private ServiceInstance service;

  enum Caller {
    ANONYMOUS,
    USER,
    ADMIN;

    String token() {
      return switch (this) {
        case ANONYMOUS -> null;
        case USER -> Tokens.user("curious-user");
        case ADMIN -> Tokens.admin();
      };
    }
  }

  @BeforeAll
  void start() {
    service = ServiceInstance.start(Map.of());
  }

  @AfterAll
  void stop() {
    service.close();
  }

  static Stream<Arguments> undocumentedEndpoints() {
    List<Arguments> all = new ArrayList<>();
    for (String path : UNDOCUMENTED) {
      for (Caller caller : Caller.values()) {
        for (String method : List.of("GET", "POST", "DELETE")) {
          all.add(Arguments.of(path, caller, method));
        }
      }
    }
    return all.stream();
  }

  @ParameterizedTest(name = "{2} {0} as {1}")
  @MethodSource("undocumentedEndpoints")
  void undocumentedEndpointIsNotThere(String path, Caller caller, String method) {
    HttpRequest.Builder request = Api.request(service.url(), path, caller.token());
    request.method(
        method,
        method.equals("GET")
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString("{}"));
    if (!method.equals("GET")) {
      request.header("Content-Type", "application/json");
    }
    Api.Response response = Api.send(request.build());

    assertThat(response.status()).as("%s %s as %s: %s", method, path, caller, response).isIn(401, 404);
    assertThat(response.contentType()).startsWith(Problem.MEDIA_TYPE);
    assertThat(response.body()).doesNotContain("java.").doesNotContain("flashclaim.");
  }

  @Test
  void documentedSurfaceIsThere() {
    for (String path :
        List.of(
            "/health", "/health/liveness", "/health/readiness", "/prometheus",
            "/swagger/flashclaim-v1.yml", "/swagger-ui/index.html", "/dashboard/",
            "/dashboard/index.html", "/app/", "/admin/", "/admin/index.html")) {
      Api.Response response = Api.get(service.url(), path, null);
      assertThat(response.status()).as("%s: %s", path, response).isEqualTo(200);
    }
  }

  @Test
  void healthDetailsAreForAdminsOnly() {
    for (String path : List.of("/health", "/health/readiness", "/health/liveness")) {
      for (Caller caller : Caller.values()) {
        Api.Response response = Api.get(service.url(), path, caller.token());
        assertThat(response.status()).as("%s as %s: %s", path, caller, response).isEqualTo(200);
        Map<String, Object> health = response.json();
        assertThat(health).containsEntry("status", "UP");
        if (caller == Caller.ADMIN) {
          assertThat(health).as("%s as admin", path).containsKey("details");
        } else {
          assertThat(health).as("%s as %s", path, caller).doesNotContainKey("details");
          assertThat(response.body()).doesNotContain("firestore").doesNotContain("projectId");
        }
      }
    }
    Api.Response readiness = Api.get(service.url(), "/health/readiness", Tokens.admin());
    assertThat(readiness.body()).contains("firestore");
  }

  /** A health check that does not exist is a path that names nothing, whoever asks. */
  @ParameterizedTest(name = "{0} as {1}")
  @MethodSource("unknownHealthChecks")
  void unknownHealthCheckIsNotFound(String path, Caller caller) {
    Api.Response response = Api.get(service.url(), path, caller.token());

    assertThat(response.status()).as("%s as %s: %s", path, caller, response).isEqualTo(404);
    assertThat(response.contentType()).startsWith(Problem.MEDIA_TYPE);
    assertThat(response.json()).containsEntry("type", ProblemType.NOT_FOUND.uri());
    assertThat(response.body()).doesNotContainIgnoringCase("enum").doesNotContain("java.");
  }

  static Stream<Arguments> unknownHealthChecks() {
    return Stream.of("/health/nothing", "/health/ready", "/health/0", "/health/%20")
        .flatMap(path -> Arrays.stream(Caller.values()).map(caller -> Arguments.of(path, caller)));
  }

  @Test
  void endpointNamesStayOffWhateverTheSpelling() {
    for (String path : Arrays.asList("/beans/", "//beans", "/./routes", "/health/../beans", "/%62eans")) {
      Api.Response response =
          Api.send(
              HttpRequest.newBuilder(URI.create(service.url() + path))
                  .header("Authorization", "Bearer " + Tokens.admin())
                  .GET()
                  .build());
      assertThat(response.status()).as("%s: %s", path, response).isEqualTo(404);
    }
  }
}
