package flashclaim;

import flashclaim.http.shed.GracefulShutdown;
import io.micronaut.context.ApplicationContext;
import io.micronaut.context.BeanRegistration;
import io.micronaut.context.env.Environment;
import io.micronaut.runtime.Micronaut;
import io.swagger.v3.oas.annotations.OpenAPIDefinition;
import io.swagger.v3.oas.annotations.enums.SecuritySchemeIn;
import io.swagger.v3.oas.annotations.enums.SecuritySchemeType;
import io.swagger.v3.oas.annotations.info.Info;
import io.swagger.v3.oas.annotations.security.SecurityScheme;
import io.swagger.v3.oas.annotations.servers.Server;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/** Entry point of the flashclaim service. */
@OpenAPIDefinition(
    info =
        @Info(
            title = "flashclaim",
            version = "v1",
            description =
                "Flash-sale coupon claims. Every body is JSON; every error is"
                    + " application/problem+json (RFC 9457) with a stable type"
                    + " urn:flashclaim:problem:<name>. Any route may also answer 403 forbidden"
                    + " (another site's Origin while the instance is addressed as localhost), 404"
                    + " not-found (unknown route or a path not in its canonical form), 405"
                    + " method-not-allowed, 406 not-acceptable, 408 body-timeout (a request body"
                    + " slower than the read timeout), 413 payload-too-large, 414 uri-too-long (a"
                    + " request line over the server's limit), 415 unsupported-media-type (a"
                    + " Content-Type the route does not take), 431 headers-too-large (a header"
                    + " section over it), 503 unavailable and 500 internal-error (a bug)."),
    servers = @Server(url = "/", description = "the instance that serves this document"))
@SecurityScheme(
    name = "bearer",
    type = SecuritySchemeType.HTTP,
    scheme = "bearer",
    bearerFormat = "JWT",
    description = "The user is the token's sub; admin routes need roles: [admin].")
@SecurityScheme(
    name = "signature",
    type = SecuritySchemeType.APIKEY,
    in = SecuritySchemeIn.HEADER,
    paramName = "X-Flashclaim-Signature",
    description =
        "The webhook's signature of each request: t=<unix seconds>,v1=<hex"
            + " HMAC-SHA256(secret, \"<t>.<body>\")>, over the body's exact bytes.")
public final class Application {
  /** System property: every singleton made at start ({@link #eagerInit}). */
  static final String EAGER_INIT = "flashclaim.eager-init";
  /** The same as an environment variable. */
  static final String EAGER_INIT_VARIABLE = "FLASHCLAIM_EAGER_INIT";

  private Application() {}

  /**
   * Starts the service. If it cannot start (a configuration it refuses, a port in use, a store it
   * cannot reach), it says why in one line, stops what had already started (the embedded emulator
   * or PostgreSQL are child processes, which would outlive it) and exits with status 1.
   */
  public static void main(String[] args) {
    Launcher launcher = new Launcher();
    launcher.classes(Application.class).args(args);
    launcher.eagerInitSingletons(
        eagerInit(System.getProperty(EAGER_INIT), System.getenv(EAGER_INIT_VARIABLE)));
    ApplicationContext context = launcher.start();
    drainOnTermination(context);
  }

  /**
   * Whether every singleton is created while the context starts (Micronaut's {@code
   * eagerInitSingletons}) rather than at its first use: {@code -Dflashclaim.eager-init=true} or
   * {@code FLASHCLAIM_EAGER_INIT=true}, the system property first; off by default. Read before the
   * context exists, so it is not a configuration property of the context.
   */
  static boolean eagerInit(String systemProperty, String environmentVariable) {
    String value = systemProperty != null ? systemProperty : environmentVariable;
    return value != null && Boolean.parseBoolean(value.strip());
  }

  /** Micronaut's launcher, which on a failed start closes the context before it exits. */
  private static final class Launcher extends Micronaut {
    private static final Logger LOG = LoggerFactory.getLogger(Application.class);
    private ApplicationContext context;

    @Override
    protected ApplicationContext newApplicationContext() {
      context = super.newApplicationContext();
      return context;
    }

    @Override
    protected void handleStartupException(Environment environment, Throwable exception) {
      Throwable cause = rootCause(exception);
      LOG.error(
          "flashclaim did not start: {}",
          cause.getMessage() == null ? cause.toString() : cause.getMessage());
      if (context != null) {
        stopWhatStarted(context);
      }
      super.handleStartupException(environment, exception); // exits with status 1
    }

    /**
     * A context that failed while starting does not stop its beans when closed: those that hold
     * processes, threads or connections are stopped one by one.
     */
    private static void stopWhatStarted(ApplicationContext context) {
      try {
        if (context.isRunning()) {
          context.close();
          return;
        }
        for (BeanRegistration<AutoCloseable> bean :
            context.getActiveBeanRegistrations(AutoCloseable.class)) {
          try {
            context.destroyBean(bean);
          } catch (RuntimeException e) {
            LOG.warn(
                "Stopping {} after the failed start: {}",
                bean.getBeanDefinition().getName(),
                e.toString());
          }
        }
      } catch (RuntimeException e) {
        LOG.warn("Stopping after the failed start: {}", e.toString());
      }
    }

    private static Throwable rootCause(Throwable exception) {
      Throwable cause = exception;
      while (cause.getCause() != null && cause.getCause() != cause) {
        cause = cause.getCause();
      }
      return cause;
    }
  }

  /**
   * On SIGTERM (what Cloud Run and container platforms send) and SIGINT, drains the instance
   * ({@link GracefulShutdown}) before the JVM's shutdown hooks run: Micronaut's hook stops the HTTP
   * server first, which would cut the connections of the requests in flight.
   */
  private static void drainOnTermination(ApplicationContext context) {
    for (String name : new String[] {"TERM", "INT"}) {
      Signal signal = new Signal(name);
      Signal.handle(
          signal,
          received -> {
            context.findBean(GracefulShutdown.class).ifPresent(GracefulShutdown::drain);
            System.exit(128 + received.getNumber());
          });
    }
  }
}
