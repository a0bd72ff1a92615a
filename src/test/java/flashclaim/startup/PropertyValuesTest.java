package flashclaim.startup;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.context.env.PropertySource;
import io.micronaut.context.env.PropertySourcePropertyResolver;
import io.micronaut.serde.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The check of property values against the build's configuration metadata: every value that does
 * not convert to its property's type is named, every value that does is left alone.
 */
class PropertyValuesTest {
  private static final List<PropertyValues.Checked> CHECKED =
      PropertyValues.checked(ObjectMapper.getDefault());

  private static List<String> problems(Map<String, Object> values) {
    return PropertyValues.problems(
        new PropertySourcePropertyResolver(PropertySource.of("test", values)), CHECKED);
  }

  @Test
  void theMetadataNamesTheServicesTypedProperties() {
    assertThat(CHECKED)
        .extracting(PropertyValues.Checked::name)
        .contains(
            "flashclaim.http.lag-shed.target",
            "flashclaim.admission.max-queued",
            "flashclaim.admission.book-headroom",
            "flashclaim.http.lag-shed.enabled",
            "flashclaim.claim.deadline")
        .allMatch(name -> name.startsWith("flashclaim."))
        .doesNotHaveDuplicates();
  }

  @Test
  void valuesThatConvertPass() {
    assertThat(
            problems(
                Map.of(
                    "flashclaim.http.lag-shed.target", "250ms",
                    "flashclaim.claim.deadline", "PT2S",
                    "flashclaim.admission.max-queued", "900",
                    "flashclaim.admission.book-headroom", "1.5",
                    "flashclaim.http.lag-shed.enabled", "false",
                    "flashclaim.http.bodies.file-max-size", "64KB",
                    "flashclaim.http.bodies.webhook-max-size", "1048576",
                    "flashclaim.idempotency.max-stored-body", "2mb",
                    "flashclaim.admission.limit", "anything: strings are not checked here")))
        .isEmpty();
  }

  @Test
  void sizesAreReadAsMicronautReadsThemAndMustFitTheirInt() {
    assertThat(CHECKED)
        .filteredOn(c -> c.name().equals("flashclaim.http.bodies.file-max-size"))
        .extracting(PropertyValues.Checked::kind)
        .containsExactly(PropertyValues.Kind.BYTES);
    assertThat(List.of("0", "64KB", "256MB", "1gb", "2147483647", "1GB"))
        .allMatch(PropertyValues::isSize);
    assertThat(List.of("", "64 KB", "64K", "1.5MB", "-1", "2GB", "2147483648", "9".repeat(30)))
        .noneMatch(PropertyValues::isSize);
    assertThat(problems(Map.of("flashclaim.http.bodies.file-max-size", "4GB")))
        .singleElement()
        .asString()
        .startsWith("flashclaim.http.bodies.file-max-size=4GB is not a size");
  }

  @Test
  void everyValueThatDoesNotConvertIsNamedWithItsKindAndDefault() {
    List<String> problems =
        problems(
            Map.of(
                "flashclaim.http.lag-shed.target", "0",
                "flashclaim.claim.deadline", "2",
                "flashclaim.admission.max-queued", "lots",
                "flashclaim.admission.book-headroom", "fast",
                "flashclaim.http.lag-shed.enabled", "maybe",
                "micronaut.server.port", "not a flashclaim property"));

    assertThat(problems).hasSize(5);
    assertThat(problems)
        .anySatisfy(
            p ->
                assertThat(p)
                    .startsWith("flashclaim.http.lag-shed.target=0 is not a duration")
                    .endsWith("(100ms)"))
        .anySatisfy(p -> assertThat(p).startsWith("flashclaim.claim.deadline=2 is not a duration"))
        .anySatisfy(
            p -> assertThat(p).startsWith("flashclaim.admission.max-queued=lots is not a whole"))
        .anySatisfy(
            p -> assertThat(p).startsWith("flashclaim.admission.book-headroom=fast is not a number"))
        .anySatisfy(
            p -> assertThat(p).startsWith("flashclaim.http.lag-shed.enabled=maybe is not true"));
  }
}
