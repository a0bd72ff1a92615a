package flashclaim;

import flashclaim.http.GracefulShutdown;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.Micronaut;
import sun.misc.Signal;

/** Entry point of the flashclaim service. */
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
