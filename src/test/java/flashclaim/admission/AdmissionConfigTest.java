package flashclaim.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The admission's settings refuse every value that cannot work, so that the service does not
 * start with it (G8), each with a message that names the property; and take the values at the
 * edge of their ranges. Each case changes one setting of a configuration that works.
 */
class AdmissionConfigTest {
  /** A configuration that works, the documented defaults but the limit algorithm's. */
  private static final AdmissionConfig WORKS =
      new AdmissionConfig(
          "gradient2", 32, 32, 64, 900, Duration.ofMillis(100), Duration.ofSeconds(2),
          Duration.ofSeconds(30), Duration.ofMinutes(5), Duration.ofSeconds(1), 0.5, 0.05,
          Duration.ofSeconds(1), 1.2, AdmissionConfig.DEVELOPMENT_SECRET, Duration.ofMinutes(10),
          Duration.ofMillis(150), Duration.ZERO, true, 4, 2, false, Duration.ofMillis(500));

  static Stream<Arguments> refused() {
    return Stream.of(
        Arguments.of("limit", "aimd", "flashclaim.admission.limit"),
        Arguments.of("initialLimit", 0, "limits must be at least 1"),
        Arguments.of("minLimit", 0, "limits must be at least 1"),
        Arguments.of("maxLimit", 0, "limits must be at least 1"),
        Arguments.of("initialLimit", 65, "initial-limit"),
        Arguments.of("initialLimit", 8, "initial-limit"),
        Arguments.of("maxQueued", -1, "max-queued"),
        Arguments.of("workReserve", Duration.ofMillis(-1), "work-reserve"),
        Arguments.of("maxRetryAfter", Duration.ofMillis(500), "min-retry-after"),
        Arguments.of("minRetryAfter", Duration.ofMillis(-1), "min-retry-after"),
        Arguments.of("ticketTtl", Duration.ZERO, "ticket-ttl"),
        Arguments.of("maxWait", Duration.ZERO, "max-wait"),
        Arguments.of("maxTurn", Duration.ofSeconds(29), "max-turn"),
        Arguments.of("maxTurn", Duration.ofMinutes(11), "max-turn"),
        Arguments.of("retryJitter", -0.1, "retry-jitter"),
        Arguments.of("serviceTimeSmoothing", 0.0, "service-time-smoothing"),
        Arguments.of("serviceTimeSmoothing", 1.5, "service-time-smoothing"),
        Arguments.of("drainWindow", Duration.ZERO, "drain-window"),
        Arguments.of("holdGrace", Duration.ofMillis(-1), "hold-grace"),
        Arguments.of("holdSlack", Duration.ofMillis(-1), "hold-slack"),
        Arguments.of("returnsPerSlot", 0.5, "returns-per-slot"),
        Arguments.of("returnsPerSlot", 1001.0, "returns-per-slot"),
        Arguments.of("bookHeadroom", 0.9, "book-headroom"),
        Arguments.of("bookHeadroom", 11.0, "book-headroom"),
        Arguments.of("idleDrainGrowth", 0.9, "idle-drain-growth"),
        Arguments.of("idleDrainGrowth", 101.0, "idle-drain-growth"),
        Arguments.of("maxHolding", Duration.ZERO, "max-holding"),
        Arguments.of("maxHolding", Duration.ofMillis(149), "max-holding"));
  }

  @ParameterizedTest(name = "{0} = {1}")
  @MethodSource("refused")
  void aValueThatCannotWorkIsRefusedNamingItsProperty(String setting, Object value, String named) {
    assertThatThrownBy(() -> with(setting, value))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(named);
  }

  static Stream<Arguments> edges() {
    return Stream.of(
        Arguments.of("limit", "fixed"),
        Arguments.of("limit", "vegas"),
        // below min-limit: taken for a fixed limit only (see the test)
        Arguments.of("initialLimit", 8),
        Arguments.of("maxQueued", 0),
        Arguments.of("minRetryAfter", Duration.ZERO),
        Arguments.of("minRetryAfter", Duration.ofSeconds(30)),
        Arguments.of("maxWait", Duration.ofMillis(1)),
        Arguments.of("maxHolding", Duration.ofMillis(150)),
        Arguments.of("maxTurn", Duration.ofSeconds(30)),
        Arguments.of("maxTurn", Duration.ofMinutes(10)),
        Arguments.of("retryJitter", 0.0),
        Arguments.of("serviceTimeSmoothing", 1.0),
        Arguments.of("holdGrace", Duration.ZERO),
        Arguments.of("returnsPerSlot", 0.0),
        Arguments.of("returnsPerSlot", 1.0),
        Arguments.of("returnsPerSlot", 1000.0),
        Arguments.of("bookHeadroom", 1.0),
        Arguments.of("bookHeadroom", 10.0),
        Arguments.of("idleDrainGrowth", 1.0),
        Arguments.of("idleDrainGrowth", 100.0));
  }

  @ParameterizedTest(name = "{0} = {1}")
  @MethodSource("edges")
  void aValueAtTheEdgeOfItsRangeIsTaken(String setting, Object value) {
    if (setting.equals("initialLimit")) {
      // below min-limit: refused for an adaptive limit, taken for a fixed one
      assertThatThrownBy(() -> with(setting, value)).isInstanceOf(IllegalStateException.class);
      assertThatCode(() -> with(with("limit", "fixed"), setting, value)).doesNotThrowAnyException();
      return;
    }
    assertThatCode(() -> with(setting, value)).doesNotThrowAnyException();
    assertThat(component(with(setting, value), setting)).isEqualTo(value);
  }

  private static AdmissionConfig with(String setting, Object value) {
    return with(WORKS, setting, value);
  }

  /** {@code base} with one setting changed, through the record's canonical constructor. */
  private static AdmissionConfig with(AdmissionConfig base, String setting, Object value) {
    RecordComponent[] components = AdmissionConfig.class.getRecordComponents();
    Object[] values = new Object[components.length];
    boolean found = false;
    for (int i = 0; i < components.length; i++) {
      if (components[i].getName().equals(setting)) {
        values[i] = value;
        found = true;
      } else {
        values[i] = component(base, components[i].getName());
      }
    }
    assertThat(found).as("a setting named " + setting).isTrue();
    try {
      Constructor<AdmissionConfig> canonical =
          AdmissionConfig.class.getDeclaredConstructor(
              Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new));
      return canonical.newInstance(values);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException refused) {
        throw refused;
      }
      throw new AssertionError(e);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  private static Object component(AdmissionConfig config, String name) {
    try {
      return AdmissionConfig.class.getMethod(name).invoke(config);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }
}
