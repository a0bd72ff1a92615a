package flashclaim.lock;

import io.micronaut.context.ApplicationContext;
import java.time.Duration;
import java.util.Map;

/**
 * A lock holder in a process of its own, for the test that kills it: it takes the lock of a key
 * on the emulator, prints {@code FENCE <token>}, and keeps holding it (renewing the lease) until
 * the process dies.
 *
 * <p>Arguments: emulator host, project id, key, lease in milliseconds.
 */
public final class LockHolderMain {
  static final String FENCE = "FENCE";

  private LockHolderMain() {}

  public static void main(String[] args) throws Exception {
    String emulatorHost = args[0];
    String project = args[1];
    String key = args[2];
    Duration lease = Duration.ofMillis(Long.parseLong(args[3]));
    ApplicationContext context =
        ApplicationContext.builder()
            .properties(
                Map.of(
                    "flashclaim.firestore.project-id", project,
                    "flashclaim.firestore.emulator-host", emulatorHost,
                    "flashclaim.firestore.embedded", "false"))
            .environments("test")
            .start();
    LockService locks = context.getBean(LockService.class);
    LockOutcome<Void> outcome =
        locks.runWithLock(
            key,
            locks.defaults().withLease(lease).withWaitTimeout(Duration.ofMinutes(2)),
            held -> {
              System.out.println(FENCE + " " + held.fencingToken());
              System.out.flush();
              try {
                Thread.sleep(Long.MAX_VALUE); // until killed
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return null;
            });
    System.out.println("not acquired: " + outcome);
    System.exit(1);
  }
}
