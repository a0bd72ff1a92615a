package flashclaim.store.firestore;

import flashclaim.auth.StoreLocation;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;

/** Where the Firestore store is: an emulator (given, or embedded) is local, a project is not. */
@Singleton
@Requires(property = "flashclaim.store", value = "firestore", defaultValue = "firestore")
final class FirestoreStoreLocation implements StoreLocation {
  private final FirestoreConfig config;

  FirestoreStoreLocation(FirestoreConfig config) {
    this.config = config;
  }

  @Override
  public String description() {
    if (hasEmulatorHost()) {
      return "the Firestore emulator at " + config.emulatorHost();
    }
    return config.wantsEmbeddedEmulator()
        ? "the embedded Firestore emulator"
        : "Firestore project " + config.projectId();
  }

  @Override
  public boolean local() {
    return hasEmulatorHost() || config.wantsEmbeddedEmulator();
  }

  private boolean hasEmulatorHost() {
    return config.emulatorHost() != null && !config.emulatorHost().isBlank();
  }
}
