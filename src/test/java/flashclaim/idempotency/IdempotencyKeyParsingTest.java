package flashclaim.idempotency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import flashclaim.InvalidInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Syntax of the Idempotency-Key header, and what the record id and fingerprint are made of. */
class IdempotencyKeyParsingTest {

  @Test
  void bareAndQuotedFormsNameTheSameKey() {
    assertThat(IdempotencyKey.fromHeader("8e03978e-40d5")).isEqualTo(new IdempotencyKey("8e03978e-40d5"));
    assertThat(IdempotencyKey.fromHeader("\"8e03978e-40d5\"")).isEqualTo(new IdempotencyKey("8e03978e-40d5"));
    assertThat(IdempotencyKey.fromHeader("\"a \\\"b\\\" \\\\c\"").value()).isEqualTo("a \"b\" \\c");
    assertThat(IdempotencyKey.fromHeader("~!@# $%^&*()_+{}|:<>?").value()).hasSize(21);
    assertThat(IdempotencyKey.fromHeader("k".repeat(255)).value()).hasSize(255);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "\"\"", "\"", "\"open", "\"a\"b\"", "\"bad \\n\"", "\"end\\\"", "tab\t", "caf\u00e9", "line\nfeed"})
  void malformedKeysAreRejected(String header) {
    assertThatThrownBy(() -> IdempotencyKey.fromHeader(header))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Idempotency-Key");
  }

  @Test
  void overlongKeyIsRejected() {
    assertThatThrownBy(() -> IdempotencyKey.fromHeader("k".repeat(256)))
        .isInstanceOf(InvalidInputException.class);
  }

  @Test
  void recordIdSeparatesCallerAndKey() {
    IdempotencyKey key = new IdempotencyKey("x");
    assertThat(key.recordId("alice1")).isNotEqualTo(new IdempotencyKey("1x").recordId("alice"));
    assertThat(key.recordId("alice")).isNotEqualTo(key.recordId("bob")).hasSize(64);
  }

  @Test
  void fingerprintCoversMethodTargetCallerAndBody() {
    String base = Fingerprint.of("POST", "/a", "alice", new byte[] {1, 2});
    assertThat(Fingerprint.of("POST", "/a", "alice", new byte[] {1, 2})).isEqualTo(base);
    assertThat(Fingerprint.of("PUT", "/a", "alice", new byte[] {1, 2})).isNotEqualTo(base);
    assertThat(Fingerprint.of("POST", "/b", "alice", new byte[] {1, 2})).isNotEqualTo(base);
    assertThat(Fingerprint.of("POST", "/a", "bob", new byte[] {1, 2})).isNotEqualTo(base);
    assertThat(Fingerprint.of("POST", "/a", "alice", new byte[] {1, 3})).isNotEqualTo(base);
    // Lengths keep parts apart: "/a" + "alice" is not "/aa" + "lice".
    assertThat(Fingerprint.of("POST", "/aa", "lice", new byte[] {1, 2})).isNotEqualTo(base);
    assertThat(Fingerprint.of("POST", "/a", "alice", null))
        .isEqualTo(Fingerprint.of("POST", "/a", "alice", new byte[0]));
  }
}
