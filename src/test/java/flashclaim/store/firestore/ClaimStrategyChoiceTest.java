package flashclaim.store.firestore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import flashclaim.claim.ClaimStore;
import flashclaim.testing.ServiceInstance;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code flashclaim.firestore.claim.strategy} picks one of the service's strategies (or, where the
 * test classes are, the benchmark's {@code oldest-first}, which replaces the service's choice); any
 * other name stops the service from starting and says which names it knows, and so does the
 * setting under its former name, {@code flashclaim.claim.strategy}.
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
              ServiceInstance.start(Map.of("flashclaim.firestore.claim.strategy", name))) {
            assertThat(instance.context().getBean(ClaimStore.class)).as(name).isInstanceOf(type);
          }
        });
  }

  @Test
  void anUnknownStrategyStopsTheStart() {
    assertThatThrownBy(
            () -> ServiceInstance.start(Map.of("flashclaim.firestore.claim.strategy", "fastest")))
        .rootCause()
        .hasMessageContaining(
            "flashclaim.firestore.claim.strategy must be one of [optimistic, seed]")
        .hasMessageContaining("not 'fastest'");
  }

  @Test
  void theFormerNameOfTheSettingStopsTheStart() {
    assertThatThrownBy(() -> ServiceInstance.start(Map.of("flashclaim.claim.strategy", "seed")))
        .rootCause()
        .hasMessageContaining(
            "flashclaim.claim.strategy is now flashclaim.firestore.claim.strategy");
  }
}
