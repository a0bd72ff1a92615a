package flashclaim.lock;

import io.micronaut.context.ApplicationContext;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * A lock holder in a process of its own, for the test that kills it: it takes the lock of a key
 * on the store its properties name, prints {@code FENCE <token>}, and keeps holding it (renewing the lease) until
 * the process dies.
 *
 * <p>Arguments: key, lease in milliseconds, then the properties of the store as {@code name=value}.
 */
public final class LockHolderMain {
  static final String FENCE = "FENCE";

  private LockHolderMain() {}

  public static void main(String[] args) throws Exception {
    String key = args[0];
    Duration lease = Duration.ofMillis(Long.parseLong(args[1]));
    Map<String, Object> properties = new HashMap<>();
    for (int i = 2; i < args.length; i++) {
      int equals = args[i].indexOf('=');
      properties.put(args[i].substring(0, equals), args[i].substring(equals + 1));
    }
    ApplicationContext context =
        ApplicationContext.builder().properties(properties).environments("test").start();
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
