package flashclaim.lock;

import flashclaim.store.firestore.FirestoreClients;
import flashclaim.store.postgres.PostgresClients;
import flashclaim.testing.StoreClients;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A lock holder in a process of its own, for the test that kills it: with a store client of its own
 * and no service, it takes the lock of a key, prints {@code FENCE <token>}, and keeps holding it
 * (renewing the lease) until the process dies.
 *
 * <p>Arguments: key, lease in milliseconds, then the {@link StoreClients#store() store} and {@link
 * StoreClients#location() where it is}.
 */
public final class LockHolderMain {
  static final String FENCE = "FENCE";

  private LockHolderMain() {}

  public static void main(String[] args) {
    String key = args[0];
    Duration lease = Duration.ofMillis(Long.parseLong(args[1]));
    StoreClients client =
        switch (args[2]) {
          case "firestore" -> new FirestoreClients(args[3], 1);
          case "postgres" -> PostgresClients.attach(args[3], 1);
          default -> throw new IllegalArgumentException("no store " + args[2]);
        };
    LockService locks =
        new LockService(
            client.lockStore(0),
            new LockConfig(
                lease,
                Duration.ofMinutes(2),
                Duration.ofMillis(20),
                Duration.ofMillis(500),
                0.33,
                1),
            Clock.systemUTC());
    LockOutcome<Void> outcome =
        locks.runWithLock(
            key,
            locks.defaults(),
            held -> {
              System.out.println(FENCE + " " + held.fencingToken());
              System.out.flush();
              try {
                TimeUnit.DAYS.sleep(1); // until killed
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return null;
            });
    System.out.println("not acquired: " + outcome);
    System.exit(1);
  }
}
