package flashclaim;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What the entry point reads before the context exists: eager or lazy singletons. */
class ApplicationTest {

  @Test
  void singletonsAreLazyUnlessTheSystemPropertyOrTheVariableSaysTrue() {
    assertThat(Application.eagerInit(null, null)).isFalse();
    assertThat(Application.eagerInit("true", null)).isTrue();
    assertThat(Application.eagerInit(null, "true")).isTrue();
    assertThat(Application.eagerInit(" TRUE ", null)).isTrue();
    assertThat(Application.eagerInit("yes", null)).isFalse();
    assertThat(Application.eagerInit("", "true")).isFalse();
  }

  @Test
  void theSystemPropertyComesBeforeTheVariable() {
    assertThat(Application.eagerInit("false", "true")).isFalse();
    assertThat(Application.eagerInit("true", "false")).isTrue();
  }
}
