package flashclaim.idempotency;

import flashclaim.Sha256;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * What makes two requests "the same" for an idempotency key: SHA-256 over the method, the request
 * target (path and query), the caller's identity and the raw body bytes, each preceded by its
 * length so that no two different requests feed the digest the same bytes.
 */
public final class Fingerprint {
  private Fingerprint() {}

  public static String of(String method, String target, String caller, byte[] body) {
    MessageDigest sha = Sha256.digest();
    for (byte[] part :
        new byte[][] {
          utf8(method), utf8(target), utf8(caller), body == null ? new byte[0] : body
        }) {
      sha.update(ByteBuffer.allocate(Integer.BYTES).putInt(part.length).array());
      sha.update(part);
    }
    return HexFormat.of().formatHex(sha.digest());
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
