package flashclaim.redemption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import flashclaim.redemption.WebhookSignature.Verdict;
import flashclaim.testing.Webhooks;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The signature check on its own, with a fixed clock. */
class WebhookSignatureTest {
  private static final Instant NOW = Instant.parse("2030-01-01T12:00:00Z");
  private static final long T = NOW.getEpochSecond();
  private static final byte[] BODY =
      "{\"code\":\"C-1\",\"orderId\":\"o-1\",\"event\":\"redeemed\"}".getBytes(StandardCharsets.UTF_8);

  private final WebhookSignature signature =
      new WebhookSignature(
          new WebhookConfig(Webhooks.SECRET, Duration.ofMinutes(5)), Clock.fixed(NOW, ZoneOffset.UTC));

  private Verdict verify(String header) {
    return signature.verify(header, BODY);
  }

  private static String signed(long t) {
    return Webhooks.signature(BODY, t, Webhooks.SECRET);
  }

  @Test
  void aSignatureOfTheBodyWithinTheWindowIsValid() {
    assertThat(verify(signed(T))).isEqualTo(Verdict.VALID);
    assertThat(verify(signed(T - 300))).isEqualTo(Verdict.VALID);
    assertThat(verify(signed(T + 300))).isEqualTo(Verdict.VALID);
    assertThat(verify(" " + signed(T).replace(",", " , ") + " ")).isEqualTo(Verdict.VALID);
  }

  @Test
  void outsideTheWindowItIsStaleEitherWay() {
    assertThat(verify(signed(T - 301))).isEqualTo(Verdict.STALE);
    assertThat(verify(signed(T + 301))).isEqualTo(Verdict.STALE);
    assertThat(verify(signed(0))).isEqualTo(Verdict.STALE);
  }

  @Test
  void anyOfSeveralSignaturesMayMatchForSecretRotation() {
    String other = Webhooks.signature(BODY, T, "another-secret-of-at-least-32-bytes-0123456789");
    String otherV1 = other.substring(other.indexOf(",") + 1);
    assertThat(verify(signed(T) + "," + otherV1)).isEqualTo(Verdict.VALID);
    assertThat(verify("t=" + T + "," + otherV1 + "," + signed(T).substring(signed(T).indexOf(",") + 1)))
        .isEqualTo(Verdict.VALID);
    assertThat(verify(other)).isEqualTo(Verdict.MISMATCH);
  }

  @Test
  void aChangedBodyTimestampOrSecretDoesNotMatch() {
    byte[] tampered = BODY.clone();
    tampered[tampered.length - 3] ^= 1;
    assertThat(signature.verify(signed(T), tampered)).isEqualTo(Verdict.MISMATCH);
    assertThat(verify(signed(T).replace("t=" + T, "t=" + (T - 1)))).isEqualTo(Verdict.MISMATCH);
    String v1 = signed(T).substring(signed(T).indexOf("v1=") + 3);
    String flipped = (v1.charAt(0) == '0' ? "1" : "0") + v1.substring(1);
    assertThat(verify("t=" + T + ",v1=" + flipped)).isEqualTo(Verdict.MISMATCH);
    assertThat(verify("t=" + T + ",v1=" + v1.toUpperCase())).isEqualTo(Verdict.VALID);
  }

  @Test
  void missingOrMalformedHeadersAreTold() {
    assertThat(verify(null)).isEqualTo(Verdict.MISSING);
    assertThat(verify("")).isEqualTo(Verdict.MISSING);
    assertThat(verify("  ")).isEqualTo(Verdict.MISSING);
    String v1 = signed(T).substring(signed(T).indexOf(",") + 1);
    assertThat(verify(v1)).as("no timestamp").isEqualTo(Verdict.MALFORMED);
    assertThat(verify("t=" + T)).as("no signature").isEqualTo(Verdict.MALFORMED);
    assertThat(verify("t=,"+ v1)).isEqualTo(Verdict.MALFORMED);
    assertThat(verify("t=-5," + v1)).isEqualTo(Verdict.MALFORMED);
    assertThat(verify("t=1e9," + v1)).isEqualTo(Verdict.MALFORMED);
    assertThat(verify("t=" + "9".repeat(40) + "," + v1)).isEqualTo(Verdict.MALFORMED);
    assertThat(verify("t=" + T + ",t=" + T + "," + v1)).as("two timestamps").isEqualTo(Verdict.MALFORMED);
    assertThat(verify("t=" + T + ",v1=abc")).as("short hex").isEqualTo(Verdict.MALFORMED);
    assertThat(verify("t=" + T + ",v1=" + "g".repeat(64))).as("not hex").isEqualTo(Verdict.MALFORMED);
    assertThat(verify("sha256=" + v1)).isEqualTo(Verdict.MALFORMED);
  }

  @Test
  void aShortSecretIsRefusedAtStartup() {
    assertThatThrownBy(
            () ->
                new WebhookSignature(
                    new WebhookConfig("too-short", Duration.ofMinutes(5)), Clock.systemUTC()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("32 bytes");
  }
}
