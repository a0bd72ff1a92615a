package flashclaim.store.firestore;

import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.util.Optional;

/** Starts the embedded emulator when the configuration asks for one; stopped at shutdown. */
@Factory
@Requires(property = "flashclaim.store", value = "firestore", defaultValue = "firestore")
final class EmbeddedEmulatorFactory {
  @Singleton
  @Bean(preDestroy = "close")
  @Requires(condition = EmbeddedEmulatorCondition.class)
  FirestoreEmulator embeddedEmulator(FirestoreConfig config) {
    return FirestoreEmulator.start(
        FirestoreEmulator.locateJar(Optional.ofNullable(config.emulatorJar())),
        config.emulatorPort(),
        config.emulatorHeap(),
        config.emulatorStartTimeout());
  }
}
