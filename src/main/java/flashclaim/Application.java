package flashclaim;

import io.micronaut.runtime.Micronaut;

/** Entry point of the flashclaim service. */
public final class Application {
  private Application() {}

  public static void main(String[] args) {
    Micronaut.run(Application.class, args);
  }
}
