package flashclaim.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import flashclaim.redemption.WebhookConfig;
import flashclaim.testing.Api;
import flashclaim.testing.TestEmulator;
import flashclaim.testing.TestPostgres;
import flashclaim.testing.Tokens;
import flashclaim.testing.Webhooks;
import io.micronaut.context.ApplicationContext;
import io.micronaut.context.ApplicationContextBuilder;
import io.micronaut.context.BeanRegistration;
import io.micronaut.context.env.PropertySource;
import io.micronaut.runtime.server.EmbeddedServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * G8 at start-up: every unsafe configuration is refused when the application context starts, before
 * the HTTP server or any store client does, with a message that names the setting to change (and
 * none of the secrets it does not mean); the safe configurations next to them start, and refuse an
 * unsigned admin token.
 *
 * <p>The configurations are tried in this JVM, each in an application context of its own, with
 * the configuration's environment variables as Micronaut reads them (its own environment is not
 * read: surefire keeps the variables that {@code application.yml} reads out of it). A few run the
 * real main class in a JVM of its own, for what only a process shows: the refusal is one line
 * before an exit with a non-zero status, whichever of the environment variables brought it; a
 * service on the embedded emulator or PostgreSQL stops on SIGTERM with nothing left running; a
 * start that fails after the embedded emulator started leaves no emulator behind.
 */
class StartupRefusalTest {
  private static final Duration EXIT_TIMEOUT = Duration.ofMinutes(3);
  private static final String REFUSAL = "flashclaim did not start:";
  private static final String HS256 = "flashclaim.auth.hs256-secret";
  private static final String WEBHOOKS = "flashclaim.webhooks.secret";
  private static final String TICKETS = "flashclaim.admission.ticket-secret";
  private static final String OWN_TICKET_SECRET = "a-ticket-secret-of-this-deployment-0123456789";
  private static final String REAL_PROJECT = "flashclaim-production";

  /** The refusals that also run as a process: one through each variable that chooses a store. */
  private static final Set<String> REFUSED_AS_A_PROCESS =
      Set.of(
          "an undocumented auth mode",
          "the development HS256 secret on a real Firestore project",
          "every development secret on a PostgreSQL URL");

  /** A configuration: environment variables and system properties of the service's JVM. */
  record Config(Map<String, String> environment, Map<String, String> properties) {
    Config with(String property, String value) {
      Map<String, String> more = new HashMap<>(properties);
      more.put(property, value);
      return new Config(environment, more);
    }

    Config withEnv(String name, String value) {
      Map<String, String> more = new HashMap<>(environment);
      more.put(name, value);
      return new Config(more, properties);
    }
  }

  /** The test emulator as the store, and no secrets set: their development values apply. */
  private static Config onTheEmulator() {
    return new Config(
        Map.of(
            "FIRESTORE_EMULATOR_HOST",
            TestEmulator.host(),
            "GOOGLE_CLOUD_PROJECT",
            TestEmulator.PROJECT),
        Map.of());
  }

  /** A real Firestore project, as in production (never reached: the service refuses first). */
  private static Config onARealProject() {
    return new Config(Map.of("GOOGLE_CLOUD_PROJECT", REAL_PROJECT), Map.of());
  }

  /** A PostgreSQL database given by URL: not the embedded one. */
  private static Config onAPostgresUrl() {
    return new Config(
        Map.of("FLASHCLAIM_POSTGRES_URL", TestPostgres.url()),
        Map.of("flashclaim.store", "postgres"));
  }

  private static Config withOwnSecrets(Config config) {
    return config
        .with(HS256, Tokens.SECRET)
        .with(WEBHOOKS, Webhooks.SECRET)
        .with(TICKETS, OWN_TICKET_SECRET);
  }

  static Stream<Arguments> unsafeConfigurations() {
    return Stream.of(
        refused(
            "an undocumented auth mode",
            onTheEmulator().withEnv("FLASHCLAIM_AUTH_MODE", "jwt"),
            "flashclaim.auth.mode"),
        refused(
            "firebase mode without a key set URL",
            onTheEmulator()
                .withEnv("FLASHCLAIM_AUTH_MODE", "firebase")
                .with("flashclaim.auth.jwks-url", ""),
            "flashclaim.auth.jwks-url"),
        refused(
            "firebase mode with keys over plain HTTP from another host",
            onTheEmulator()
                .withEnv("FLASHCLAIM_AUTH_MODE", "firebase")
                .with("flashclaim.auth.jwks-url", "http://keys.example.com/jwks.json"),
            "flashclaim.auth.jwks-url"),
        refused("local mode with an empty secret", onTheEmulator().with(HS256, ""), HS256),
        refused(
            "local mode with a short secret", onTheEmulator().with(HS256, "short-secret"), HS256),
        refused(
            "the development HS256 secret on a real Firestore project",
            onARealProject().with(WEBHOOKS, Webhooks.SECRET).with(TICKETS, OWN_TICKET_SECRET),
            HS256),
        refused(
            "the development webhook secret on a real Firestore project",
            onARealProject().with(HS256, Tokens.SECRET).with(TICKETS, OWN_TICKET_SECRET),
            WEBHOOKS),
        refused(
            "the development ticket secret on a real Firestore project",
            onARealProject().with(HS256, Tokens.SECRET).with(WEBHOOKS, Webhooks.SECRET),
            TICKETS),
        refused(
            "the development webhook secret in firebase mode on a real Firestore project",
            onARealProject()
                .withEnv("FLASHCLAIM_AUTH_MODE", "firebase")
                .with(TICKETS, OWN_TICKET_SECRET),
            WEBHOOKS),
        refused(
            "the development webhook secret, set explicitly, on a real Firestore project",
            onARealProject()
                .with(HS256, Tokens.SECRET)
                .with(WEBHOOKS, WebhookConfig.DEVELOPMENT_SECRET)
                .with(TICKETS, OWN_TICKET_SECRET),
            WEBHOOKS),
        refused(
            "every development secret on a PostgreSQL URL", onAPostgresUrl(), HS256, WEBHOOKS, TICKETS),
        refused(
            "security switched off",
            onTheEmulator().with("micronaut.security.enabled", "false"),
            "micronaut.security.enabled"),
        refused(
            "another signature key besides the mode's",
            onTheEmulator()
                .with(
                    "micronaut.security.token.jwt.signatures.secret.extra.secret",
                    "another-secret-that-would-sign-tokens-0123456789"),
            "micronaut.security.token.jwt.signatures"),
        refused(
            "a clock skew of an hour",
            onTheEmulator().with("flashclaim.auth.clock-skew", "1h"),
            "flashclaim.auth.clock-skew"),
        refused(
            "audit pages of no rows",
            onTheEmulator().with("flashclaim.audit.page-size", "0"),
            "flashclaim.audit.page-size"),
        refused(
            "sold-out holders read in pages of no records",
            onTheEmulator().with("flashclaim.sold-out.holder-page-size", "0"),
            "flashclaim.sold-out.holder-page-size"),
        refused(
            "a duration without its unit, which would bind to the default",
            onTheEmulator().with("flashclaim.http.lag-shed.target", "0"),
            "flashclaim.http.lag-shed.target=0"),
        refused(
            "a duration without its unit from the environment",
            onTheEmulator().withEnv("FLASHCLAIM_CLAIM_DEADLINE", "2"),
            "flashclaim.claim.deadline=2"),
        refused(
            "a switch that is neither true nor false",
            onTheEmulator().with("flashclaim.http.lag-shed.enabled", "off-please"),
            "flashclaim.http.lag-shed.enabled=off-please"));
  }

  /** An unsafe configuration and the settings its refusal names; none other of the secrets. */
  private static Arguments refused(String name, Config config, String... settings) {
    return Arguments.of(name, config, List.of(settings));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("unsafeConfigurations")
  void unsafeConfigurationsRefuseToStart(String name, Config config, List<String> settings) {
    ApplicationContext context = context(config).build();
    Throwable failure = catchThrowable(context::start);
    stop(context);

    assertThat(failure).as("the start of the context").isNotNull();
    // What the main class prints after "flashclaim did not start:".
    assertNamesOnly(rootCause(failure).getMessage(), settings);
  }

  static Stream<Arguments> unsafeConfigurationsOfAProcess() {
    return unsafeConfigurations().filter(a -> REFUSED_AS_A_PROCESS.contains(a.get()[0]));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("unsafeConfigurationsOfAProcess")
  void theMainClassRefusesInOneLineAndExitsNonZero(
      String name, Config config, List<String> settings) throws Exception {
    try (ServiceProcess service = ServiceProcess.start(config.environment(), config.properties())) {
      Integer exit = service.awaitExit(EXIT_TIMEOUT);
      String output = service.output();
      assertThat(exit).as("exit code; output:%n%s", output).isNotNull().isNotZero();
      assertNamesOnly(refusalLine(output), settings);
      assertThat(output).doesNotContain("Startup completed");
    }
  }

  private static void assertNamesOnly(String refusal, List<String> settings) {
    assertThat(refusal).contains(settings);
    for (String secret : List.of(HS256, WEBHOOKS, TICKETS)) {
      if (!settings.contains(secret)) {
        assertThat(refusal).doesNotContain(secret);
      }
    }
  }

  static Stream<Arguments> safeConfigurations() {
    return Stream.of(
        Arguments.of("local mode, development secrets, the Firestore emulator", onTheEmulator()),
        Arguments.of(
            "FLASHCLAIM_AUTH_MODE=firebase alone, on the Firestore emulator",
            onTheEmulator().withEnv("FLASHCLAIM_AUTH_MODE", "firebase")),
        Arguments.of("own secrets on a PostgreSQL URL", withOwnSecrets(onAPostgresUrl())));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("safeConfigurations")
  void safeConfigurationsStartAndRefuseUnsignedTokens(String name, Config config) {
    EmbeddedServer service = context(config).run(EmbeddedServer.class);
    try (ApplicationContext started = service.getApplicationContext()) {
      // ready once its start-up warm-up is over (flashclaim.warm-up.max-time, 5 s, at most)
      Api.awaitReady(service.getURI(), null, Duration.ofSeconds(60));
      Api.Response health = Api.get(service.getURI(), "/health", null);
      assertThat(health.status()).as("health: %s", health).isEqualTo(200);
      assertRefusesAnUnsignedAdminToken(service.getURI());
    }
  }

  static Stream<Arguments> safeConfigurationsOfAProcess() {
    Config embeddedEmulator =
        new Config(
            System.getenv("FIRESTORE_EMULATOR_JAR") == null
                ? Map.of()
                : Map.of("FIRESTORE_EMULATOR_JAR", System.getenv("FIRESTORE_EMULATOR_JAR")),
            Map.of());
    return Stream.of(
        Arguments.of(
            "development secrets on the embedded PostgreSQL",
            new Config(Map.of(), Map.of("flashclaim.store", "postgres"))),
        Arguments.of("development secrets on the embedded Firestore emulator", embeddedEmulator));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("safeConfigurationsOfAProcess")
  void theMainClassStartsAndStopsOnSigtermWithNothingLeftRunning(String name, Config config)
      throws Exception {
    try (ServiceProcess service = ServiceProcess.start(config.environment(), config.properties())) {
      boolean healthy = service.awaitHealthy(EXIT_TIMEOUT);
      assertThat(healthy).as("healthy; output:%n%s", service.output()).isTrue();
      assertRefusesAnUnsignedAdminToken(service.url());

      service.terminate();
      assertThat(service.awaitExit(EXIT_TIMEOUT)).as("exit after SIGTERM").isNotNull();
      assertThat(awaitNoneAlive(service)).as("processes the service started").isEmpty();
    }
  }

  private static void assertRefusesAnUnsignedAdminToken(URI service) {
    String unsigned =
        TokenForge.unsigned("none", TokenForge.claims("mallory", List.of("admin")).build());
    Api.Response forged =
        Api.post(
            service,
            "/v1/admin/campaigns",
            unsigned,
            "{\"id\":\"forged\",\"name\":\"forged\",\"perUserLimit\":1}");
    ForgedTokenContract.assertUnauthorized(forged);
  }

  /**
   * The context the main class would start with this configuration, on a free port: its variables
   * as Micronaut reads the environment (names such as {@code FLASHCLAIM_AUTH_MODE} as properties,
   * and in the placeholders of {@code application.yml}), its properties as system properties, no
   * environment of Micronaut's (a process has none either: nothing there is a test).
   */
  private static ApplicationContextBuilder context(Config config) {
    Map<String, Object> properties = new HashMap<>(config.properties());
    properties.put("micronaut.server.port", -1);
    return ApplicationContext.builder()
        .deduceEnvironment(false)
        .environmentPropertySource(false)
        .propertySources(
            PropertySource.of(
                "configuration-environment",
                new HashMap<String, Object>(config.environment()),
                PropertySource.PropertyConvention.ENVIRONMENT_VARIABLE))
        .properties(properties);
  }

  /**
   * Stops what a context started, as the main class does: one that failed to start does not stop
   * its beans when closed, so those that hold threads or connections are destroyed one by one.
   */
  private static void stop(ApplicationContext context) {
    if (context.isRunning()) {
      context.close();
      return;
    }
    for (BeanRegistration<AutoCloseable> bean :
        context.getActiveBeanRegistrations(AutoCloseable.class)) {
      context.destroyBean(bean);
    }
  }

  private static Throwable rootCause(Throwable failure) {
    Throwable cause = failure;
    while (cause.getCause() != null && cause.getCause() != cause) {
      cause = cause.getCause();
    }
    return cause;
  }

  /**
   * The embedded emulator is up when the start fails (the HTTP port is taken): the service stops
   * it, says why, and exits non-zero.
   */
  @Test
  void aStartThatFailsAfterTheEmulatorStartedLeavesNoEmulatorBehind() throws Exception {
    int emulatorPort = ServiceProcess.freePort();
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Map<String, String> environment = new HashMap<>();
      if (System.getenv("FIRESTORE_EMULATOR_JAR") != null) {
        environment.put("FIRESTORE_EMULATOR_JAR", System.getenv("FIRESTORE_EMULATOR_JAR"));
      }
      Map<String, String> properties =
          Map.of(
              "flashclaim.firestore.emulator-port", Integer.toString(emulatorPort),
              "micronaut.server.port", Integer.toString(taken.getLocalPort()),
              "micronaut.server.host", "127.0.0.1");
      try (ServiceProcess service = ServiceProcess.start(environment, properties)) {
        Integer exit = service.awaitExit(EXIT_TIMEOUT);
        String output = service.output();
        assertThat(exit).as("exit code; output:%n%s", output).isNotNull().isNotZero();
        assertThat(output).contains("Firestore emulator started at 127.0.0.1:" + emulatorPort);
        refusalLine(output);
        assertThat(awaitClosed(emulatorPort)).as("the emulator's port after the exit").isTrue();
      }
    }
  }

  private static String refusalLine(String output) {
    return output
        .lines()
        .filter(line -> line.contains(REFUSAL))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no line '" + REFUSAL + "' in:\n" + output));
  }

  private static List<ProcessHandle> awaitNoneAlive(ServiceProcess service)
      throws InterruptedException {
    for (int i = 0; i < 100 && !service.liveDescendants().isEmpty(); i++) {
      Thread.sleep(200);
    }
    return service.liveDescendants();
  }

  private static boolean awaitClosed(int port) throws InterruptedException {
    for (int i = 0; i < 100; i++) {
      try (Socket ignored = new Socket(InetAddress.getLoopbackAddress(), port)) {
        Thread.sleep(200);
      } catch (IOException refused) {
        return true;
      }
    }
    return false;
  }
}
