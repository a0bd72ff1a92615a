package flashclaim.http;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import flashclaim.testing.Api;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.Tokens;
import io.micronaut.core.type.Argument;
import io.micronaut.serde.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Every response carries an {@code X-Request-Id} (the caller's when sane), and with {@code
 * LOG_FORMAT=json} the log lines written while a request is worked on, on whatever thread, are JSON
 * objects that carry it.
 */
class RequestIdTest {

  @Test
  void requestIdIsEchoedAndInTheJsonLogLinesOfTheRequest() throws Exception {
    int deadPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      deadPort = socket.getLocalPort();
    }
    // A store that does not answer: the claim is answered 503 and its handler logs a warning on
    // the store thread, far from the filter that read the header.
    try (ServiceInstance cutOff =
        ServiceInstance.start(
            Map.of(
                "flashclaim.firestore.emulator-host", "127.0.0.1:" + deadPort,
                "flashclaim.firestore.call-timeout", "300ms"))) {
      String output =
          withJsonLogs(
              () -> {
                Api.Response given = claim(cutOff.url(), "req-test.42:a_b");
                assertThat(given.status()).isEqualTo(503);
                assertThat(given.header("X-Request-Id")).isEqualTo("req-test.42:a_b");
              });
      List<Map<String, Object>> lines =
          output.lines().filter(l -> l.startsWith("{")).map(RequestIdTest::parse).toList();
      assertThat(lines)
          .as(output)
          .anySatisfy(
              line -> {
                assertThat(line.get("level")).isEqualTo("WARN");
                assertThat((String) line.get("formattedMessage")).startsWith("store unavailable on POST");
                assertThat(line.get("mdc")).isEqualTo(Map.of("requestId", "req-test.42:a_b"));
              });
    }
  }

  @Test
  void insaneOrMissingIdsAreReplaced() {
    try (ServiceInstance service = ServiceInstance.start()) {
      for (String bad : new String[] {null, "", "has space", "x".repeat(129), "ünïcode", "a\"b"}) {
        var request = Api.request(service.url(), "/health/liveness", null);
        if (bad != null) {
          request.header("X-Request-Id", bad);
        }
        String id = Api.send(request.GET().build()).header("X-Request-Id");
        assertThat(id).as("for %s", bad).isNotEqualTo(bad);
        assertThat(UUID.fromString(id)).isNotNull();
      }
      // Problem answers carry one too.
      Api.Response unauthorized = Api.post(service.url(), "/v1/campaigns/x/claims", null, null);
      assertThat(unauthorized.status()).isEqualTo(401);
      assertThat(unauthorized.header("X-Request-Id")).isNotBlank();
    }
  }

  private static Api.Response claim(URI base, String requestId) {
    return Api.send(
        Api.request(base, "/v1/campaigns/any/claims", Tokens.user("logged"))
            .header("X-Request-Id", requestId)
            .POST(java.net.http.HttpRequest.BodyPublishers.noBody())
            .build());
  }

  /** Runs {@code action} with logback configured from logback.xml as with LOG_FORMAT=json. */
  private static String withJsonLogs(Runnable action) throws Exception {
    LoggerContext logback = (LoggerContext) LoggerFactory.getILoggerFactory();
    PrintStream stdout = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
      configure(logback, "json");
      action.run();
    } finally {
      System.setOut(stdout);
      configure(logback, "text");
    }
    return captured.toString(StandardCharsets.UTF_8);
  }

  private static void configure(LoggerContext logback, String format) throws Exception {
    logback.reset();
    logback.putProperty("LOG_FORMAT", format);
    JoranConfigurator configurator = new JoranConfigurator();
    configurator.setContext(logback);
    configurator.doConfigure(RequestIdTest.class.getResource("/logback.xml"));
  }

  private static Map<String, Object> parse(String line) {
    try {
      return ObjectMapper.getDefault().readValue(line, Argument.mapOf(String.class, Object.class));
    } catch (java.io.IOException e) {
      throw new AssertionError("not JSON: " + line, e);
    }
  }
}
