package flashclaim.startup;

import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * What lets a request reach a reserved campaign ({@link flashclaim.campaign.CampaignId#isReserved}):
 * the header {@value #HEADER} with this process's secret, 32 random bytes drawn at start that only
 * the warm-up knows and that never leave the process, and only while the warm-up runs. Any other
 * request for a reserved campaign is answered as for an unknown one.
 */
@Singleton
public final class WarmUpPass {
  /** The header the warm-up's requests carry. */
  public static final String HEADER = "Flashclaim-Warm-Up";

  private final byte[] secret;
  private volatile boolean open;

  WarmUpPass() {
    byte[] random = new byte[32];
    new SecureRandom().nextBytes(random);
    this.secret = HexFormat.of().formatHex(random).getBytes(StandardCharsets.US_ASCII);
  }

  /** Whether a request with this value of {@link #HEADER} may reach a reserved campaign now. */
  public boolean admits(String header) {
    return open
        && header != null
        && MessageDigest.isEqual(secret, header.getBytes(StandardCharsets.US_ASCII));
  }

  /** The header's value, for the warm-up's own requests. */
  String value() {
    return new String(secret, StandardCharsets.US_ASCII);
  }

  void open() {
    open = true;
  }

  /** Closes the pass for good: after the warm-up, no request reaches a reserved campaign. */
  void close() {
    open = false;
  }
}
