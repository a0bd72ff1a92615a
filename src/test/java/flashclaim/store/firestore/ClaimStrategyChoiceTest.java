package flashclaim.store.firestore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import flashclaim.claim.ClaimStore;
import flashclaim.testing.ServiceInstance;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code flashclaim.claim.strategy} picks one of the service's strategies or one a classpath adds
 * (here the benchmark's {@code oldest-first}); any other name stops the service from starting, and
 * says which names it knows.
 */
class ClaimStrategyChoiceTest {

  @Test
  void theServiceStrategiesAndTheAddedOneAreChosenByName() {
    Map<String, Class<?>> expected =
        Map.of(
            OptimisticClaimStrategy.NAME, OptimisticClaimStrategy.class,
            SeedRangeScanClaimStrategy.NAME, SeedRangeScanClaimStrategy.class,
            OldestFirstClaimStrategy.NAME, OldestFirstClaimStrategy.class);
    expected.forEach(
        (name, type) -> {
          try (ServiceInstance instance =
              ServiceInstance.start(Map.of("flashclaim.claim.strategy", name))) {
            assertThat(instance.context().getBean(ClaimStore.class)).as(name).isInstanceOf(type);
          }
        });
  }

  @Test
  void anUnknownStrategyStopsTheStart() {
    assertThatThrownBy(() -> ServiceInstance.start(Map.of("flashclaim.claim.strategy", "fastest")))
        .rootCause()
        .hasMessageContaining("flashclaim.claim.strategy must be one of [optimistic, seed, oldest-first]")
        .hasMessageContaining("not 'fastest'");
  }
}
