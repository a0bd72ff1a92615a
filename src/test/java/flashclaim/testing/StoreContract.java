package flashclaim.testing;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * Base of the store contracts: {@value #CLIENTS} clients of one real store (as {@value #CLIENTS}
 * instances have), opened by a subclass per store before the class's tests and closed after them.
 * No service is started.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class StoreContract {
  protected static final int CLIENTS = 3;

  private StoreClients clients;

  /** Opens {@code n} clients of the store under test. */
  protected abstract StoreClients openClients(int n);

  @BeforeAll
  void openStoreClients() {
    clients = openClients(CLIENTS);
  }

  @AfterAll
  void closeStoreClients() {
    clients.close();
  }

  /** The clients of the store under test. */
  protected final StoreClients clients() {
    return clients;
  }
}
