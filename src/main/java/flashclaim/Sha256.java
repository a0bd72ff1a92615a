package flashclaim;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 as lowercase hex, the one way the protections turn a key of any length into an id. */
public final class Sha256 {
  private Sha256() {}

  /** SHA-256 of the UTF-8 bytes of {@code text}, as 64 lowercase hex characters. */
  public static String hex(String text) {
    return HexFormat.of().formatHex(digest().digest(text.getBytes(StandardCharsets.UTF_8)));
  }

  /** A fresh SHA-256 digest, for input fed in parts. */
  public static MessageDigest digest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
