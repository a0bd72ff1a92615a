package flashclaim.redemption;

import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The signature of a webhook delivery. A shop signs the exact bytes of the body it sends:
 *
 * <pre>
 * X-Flashclaim-Signature: t=&lt;unix seconds&gt;,v1=&lt;hex HMAC-SHA256(secret, "&lt;t&gt;." + body)&gt;
 * </pre>
 *
 * A delivery is accepted when one of its {@code v1} values (several are allowed, for a shop that
 * rotates secrets) matches, compared in constant time, and {@code t} lies within {@code
 * flashclaim.webhooks.tolerance} of this instance's clock. The timestamp is part of what is signed,
 * so a captured delivery cannot be made fresh again; within the window a replay is harmless because
 * applying an event is idempotent.
 */
@Singleton
public class WebhookSignature {
  public static final String HEADER = "X-Flashclaim-Signature";
  /** The least secret size HMAC-SHA256 gets its full strength from. */
  public static final int MIN_SECRET_BYTES = 32;
  private static final String ALGORITHM = "HmacSHA256";
  private static final int HMAC_BYTES = 32;
  /** Digits of a unix time in seconds, far beyond any date the tolerance lets through. */
  private static final int MAX_TIMESTAMP_DIGITS = 12;
  private static final Logger LOG = LoggerFactory.getLogger(WebhookSignature.class);

  private final SecretKeySpec key;
  private final Duration tolerance;
  private final Clock clock;

  public WebhookSignature(WebhookConfig config, Clock clock) {
    byte[] secret = config.secret().getBytes(StandardCharsets.UTF_8);
    if (secret.length < MIN_SECRET_BYTES) {
      throw new IllegalStateException("flashclaim.webhooks.secret must be at least 32 bytes");
    }
    if (WebhookConfig.DEVELOPMENT_SECRET.equals(config.secret())) {
      LOG.warn("Webhooks use the development secret: set FLASHCLAIM_WEBHOOKS_SECRET.");
    }
    this.key = new SecretKeySpec(secret, ALGORITHM);
    this.tolerance = config.tolerance();
    this.clock = clock;
  }

  /** Why a delivery is or is not accepted. */
  public enum Verdict {
    VALID("the signature is valid"),
    MISSING("the " + HEADER + " header is missing"),
    MALFORMED("the " + HEADER + " header is not t=<unix seconds>,v1=<hex HMAC-SHA256>"),
    MISMATCH("the signature does not match the body"),
    STALE("the signature's timestamp is outside the tolerance window");

    private final String description;

    Verdict(String description) {
      this.description = description;
    }

    public String description() {
      return description;
    }
  }

  /** Checks the signature header of a delivery against the exact bytes of its body. */
  public Verdict verify(@Nullable String header, byte[] body) {
    if (header == null || header.isBlank()) {
      return Verdict.MISSING;
    }
    String timestamp = null;
    List<byte[]> signatures = new ArrayList<>();
    for (String part : header.split(",")) {
      int eq = part.indexOf('=');
      String name = eq < 0 ? part.trim() : part.substring(0, eq).trim();
      String value = eq < 0 ? "" : part.substring(eq + 1).trim();
      if (name.equals("t")) {
        if (timestamp != null) {
          return Verdict.MALFORMED;
        }
        timestamp = value;
      } else if (name.equals("v1")) {
        byte[] signature = hex(value);
        if (signature == null) {
          return Verdict.MALFORMED;
        }
        signatures.add(signature);
      } // other schemes (a later v2) are skipped
    }
    if (timestamp == null
        || timestamp.isEmpty()
        || timestamp.length() > MAX_TIMESTAMP_DIGITS
        || !timestamp.chars().allMatch(c -> c >= '0' && c <= '9')
        || signatures.isEmpty()) {
      return Verdict.MALFORMED;
    }
    byte[] expected = hmac(timestamp, body);
    boolean matches = false;
    for (byte[] signature : signatures) {
      matches |= MessageDigest.isEqual(expected, signature); // constant time; try every one
    }
    if (!matches) {
      return Verdict.MISMATCH;
    }
    Instant signedAt = Instant.ofEpochSecond(Long.parseLong(timestamp));
    Duration skew = Duration.between(signedAt, clock.instant()).abs();
    return skew.compareTo(tolerance) > 0 ? Verdict.STALE : Verdict.VALID;
  }

  private byte[] hmac(String timestamp, byte[] body) {
    try {
      Mac mac = Mac.getInstance(ALGORITHM); // not thread-safe: one per call
      mac.init(key);
      mac.update(timestamp.getBytes(StandardCharsets.US_ASCII));
      mac.update((byte) '.');
      return mac.doFinal(body);
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }

  /** The bytes of a hex HMAC, or null when the text is not one. */
  private static byte[] hex(String text) {
    if (text.length() != 2 * HMAC_BYTES) {
      return null;
    }
    try {
      return HexFormat.of().parseHex(text);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
