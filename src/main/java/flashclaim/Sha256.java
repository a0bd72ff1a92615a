package flashclaim;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 of text, for ids that must be fixed-length, evenly spread and safe as document ids. */
public final class Sha256 {
  /** Copied for each use: a copy skips the provider lookup of {@code getInstance}. */
  private static final MessageDigest PROTOTYPE = newDigest();

  private Sha256() {}

  /** SHA-256 of the UTF-8 bytes of {@code text}, as 64 lowercase hex characters. */
  public static String hex(String text) {
    return hex(text, 32);
  }

  /** The first {@code bytes} bytes of the SHA-256 of {@code text}, as lowercase hex. */
  public static String hex(String text, int bytes) {
    byte[] hash = digest().digest(text.getBytes(StandardCharsets.UTF_8));
    return HexFormat.of().formatHex(hash, 0, bytes);
  }

  /** A fresh SHA-256 digest, for input fed in parts. */
  public static MessageDigest digest() {
    try {
      return (MessageDigest) PROTOTYPE.clone();
    } catch (CloneNotSupportedException e) {
      return newDigest();
    }
  }

  private static MessageDigest newDigest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
