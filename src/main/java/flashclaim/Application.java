package flashclaim;

import flashclaim.http.GracefulShutdown;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.Micronaut;
import io.swagger.v3.oas.annotations.OpenAPIDefinition;
import io.swagger.v3.oas.annotations.enums.SecuritySchemeType;
import io.swagger.v3.oas.annotations.info.Info;
import io.swagger.v3.oas.annotations.security.SecurityScheme;
import sun.misc.Signal;

/** Entry point of the flashclaim service. */
@OpenAPIDefinition(
    info =
        @Info(
            title = "flashclaim",
            version = "v1",
            description =
                "Flash-sale coupon claims. Every body is JSON; every error is application/problem+json"
                    + " (RFC 9457) with a stable type urn:flashclaim:problem:<name>. Any route may also"
                    + " answer 404 not-found (unknown route or a path not in its canonical form), 405"
                    + " method-not-allowed, 406 not-acceptable, 408 body-timeout (a request body"
                    + " slower than the read timeout), 413 payload-too-large, 503 unavailable and 500"
                    + " internal-error (a bug)."))
@SecurityScheme(
    name = "bearer",
    type = SecuritySchemeType.HTTP,
    scheme = "bearer",
    bearerFormat = "JWT",
    description = "The user is the token's sub; admin routes need roles: [admin].")
public final class Application {
  private Application() {}

  public static void main(String[] args) {
    ApplicationContext context = Micronaut.run(Application.class, args);
    drainOnTermination(context);
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
