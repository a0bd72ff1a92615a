package flashclaim.store.firestore;

/**
 * A Firestore emulator that the service started itself, when the configuration asks for one
 * ({@link FirestoreConfig#wantsEmbeddedEmulator()}). A development tool: the development build
 * provides it, the container image does not.
 */
public interface EmbeddedEmulator {
  /** Its {@code host:port}. */
  String host();
}
