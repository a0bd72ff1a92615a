package flashclaim.testing;

import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;

/**
 * One instance of the service in its own application context (its own HTTP server, Firestore
 * client, caches and thread pools) on a free port, sharing the test emulator with the others.
 */
public final class ServiceInstance implements AutoCloseable {
  /** The retry-ticket secret of the test instances (not the published development value). */
  public static final String TICKET_SECRET = "flashclaim-test-ticket-secret-0123456789abcdef";

  private final EmbeddedServer server;

  private ServiceInstance(EmbeddedServer server) {
    this.server = server;
  }

  /** Starts an instance with the given properties on top of the test defaults. */
  public static ServiceInstance start(Map<String, Object> properties) {
    EmbeddedServer server =
        ApplicationContext.run(EmbeddedServer.class, withTestDefaults(properties), "test");
    return new ServiceInstance(server);
  }

  /**
   * The given properties on top of the test defaults: a free port, the test secrets and, unless
   * the properties choose PostgreSQL, the test emulator. The start-up warm-up is off (its own
   * tests turn it on): the other tests count what they send and store exactly.
   */
  public static Map<String, Object> withTestDefaults(Map<String, Object> properties) {
    Map<String, Object> all = new HashMap<>();
    all.put("micronaut.server.port", -1);
    if (!"postgres".equals(properties.get("flashclaim.store"))) {
      all.put("flashclaim.firestore.project-id", TestEmulator.PROJECT);
      all.put("flashclaim.firestore.emulator-host", TestEmulator.host());
      all.put("flashclaim.firestore.embedded", "false");
    }
    all.put("flashclaim.auth.hs256-secret", Tokens.SECRET);
    all.put("flashclaim.webhooks.secret", Webhooks.SECRET);
    all.put("flashclaim.admission.ticket-secret", TICKET_SECRET);
    all.put("flashclaim.warm-up.enabled", "false");
    all.putAll(properties);
    return all;
  }

  public static ServiceInstance start() {
    return start(Map.of());
  }

  public URI url() {
    return server.getURI();
  }

  public ApplicationContext context() {
    return server.getApplicationContext();
  }

  @Override
  public void close() {
    server.getApplicationContext().close();
  }
}
